//! How much memory the hash table may take: what a GUI asks for (`memory N`, option `Hash`) is
//! clamped to what the machine can give, so that no number from outside can abort the process.

/// The hash table's size (MB) until a GUI asks for another.
pub const DEFAULT_HASH_MB: usize = 64;
/// Used where the machine's memory cannot be read (not Linux): a size any machine running a GUI has.
const FALLBACK_MAX_HASH_MB: usize = 1024;

/// The largest hash table (MB) this machine can hold: half of its physical memory, as
/// `/proc/meminfo` reports it, so that the GUI, the opponent and the system keep the rest.
pub fn max_hash_mb() -> usize {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| max_hash_mb_from_meminfo(&text))
        .unwrap_or(FALLBACK_MAX_HASH_MB)
}

/// Half of `MemTotal` (kB) in MB, at least 1; `None` if the text has no readable `MemTotal` line.
fn max_hash_mb_from_meminfo(meminfo: &str) -> Option<usize> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    let mb = kb / 1024 / 2;
    Some(usize::try_from(mb).unwrap_or(usize::MAX).max(1))
}

/// A requested size (MB, any number a GUI sends) clamped to `1..=max_hash_mb()`.
pub fn clamp_hash_mb(requested_mb: u64) -> usize {
    clamp_to(requested_mb, max_hash_mb())
}

fn clamp_to(requested_mb: u64, max_mb: usize) -> usize {
    usize::try_from(requested_mb)
        .unwrap_or(usize::MAX)
        .clamp(1, max_mb.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_gives_half_the_physical_memory() {
        let text = "MemTotal:       24683652 kB\nMemFree:        20781164 kB\n";
        assert_eq!(max_hash_mb_from_meminfo(text), Some(24683652 / 1024 / 2));
        assert_eq!(max_hash_mb_from_meminfo("MemFree: 3 kB\n"), None);
        assert_eq!(max_hash_mb_from_meminfo("MemTotal: lots kB\n"), None);
        assert_eq!(max_hash_mb_from_meminfo("MemTotal: 1 kB\n"), Some(1));
    }

    #[test]
    fn requests_are_clamped_to_the_machine() {
        assert_eq!(clamp_to(99_999_999_999, 12_000), 12_000);
        assert_eq!(clamp_to(u64::MAX, 12_000), 12_000);
        assert_eq!(clamp_to(0, 12_000), 1);
        assert_eq!(clamp_to(300, 12_000), 300);
        assert_eq!(clamp_to(300, 0), 1);
        let max = max_hash_mb();
        assert!(max >= 1);
        assert_eq!(clamp_hash_mb(u64::MAX), max);
    }
}
