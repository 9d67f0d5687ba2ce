//! A large zero-filled array that the allocator may refuse without aborting the process, and that
//! costs nothing until used: the hash table's memory.
//!
//! `vec![x; n]` aborts when the allocator refuses and writes every element, and the standard
//! allocator zeroes by hand (touching every page) whenever the alignment exceeds 16 bytes. Here the
//! memory comes from `calloc` (alignment 16, fresh zero pages for large sizes) and the first
//! `align_of::<T>()`-aligned address inside it is used.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ptr::NonNull;

/// Types whose all-zero bit pattern is a valid value.
///
/// # Safety
/// Implement only for plain-data types (integers, atomic integers, and arrays or structs of them;
/// no references, no `bool`/enum fields with invalid zero patterns, nothing with a `Drop`).
pub unsafe trait ZeroIsValid {}

/// `len` values of `T`, all zero, aligned for `T`.
pub struct ZeroedSlice<T: ZeroIsValid> {
    /// The allocation as made (to free it).
    raw: NonNull<u8>,
    layout: Layout,
    /// The first aligned element inside it.
    data: NonNull<T>,
    len: usize,
}

// SAFETY: the slice owns its memory exclusively, like a `Box<[T]>`.
unsafe impl<T: ZeroIsValid + Send> Send for ZeroedSlice<T> {}
// SAFETY: shared access only hands out `&[T]`.
unsafe impl<T: ZeroIsValid + Sync> Sync for ZeroedSlice<T> {}

/// The alignment `calloc` guarantees (and so the standard allocator zeroes lazily).
const CALLOC_ALIGN: usize = 16;

impl<T: ZeroIsValid> ZeroedSlice<T> {
    /// `len` zeros, or `None` if the allocator refuses (or the size overflows). `len` ≥ 1 and
    /// `T` not zero-sized.
    pub fn new(len: usize) -> Option<ZeroedSlice<T>> {
        let size = std::mem::size_of::<T>().checked_mul(len)?;
        if size == 0 {
            return None;
        }
        let pad = std::mem::align_of::<T>().saturating_sub(CALLOC_ALIGN);
        let layout = Layout::from_size_align(size.checked_add(pad)?, CALLOC_ALIGN).ok()?;
        // SAFETY: the layout has a non-zero size.
        let raw = NonNull::new(unsafe { alloc_zeroed(layout) })?;
        let offset = raw.as_ptr().align_offset(std::mem::align_of::<T>());
        if offset > pad {
            // SAFETY: `raw` was allocated just now with `layout`.
            unsafe { dealloc(raw.as_ptr(), layout) };
            return None;
        }
        // SAFETY: `offset + size <= pad + size`, inside the allocation.
        let data = unsafe { raw.add(offset) }.cast::<T>();
        Some(ZeroedSlice { raw, layout, data, len })
    }

    /// Fills it with zeros again, by allocating afresh (untouched pages) when the allocator agrees,
    /// else by writing.
    pub fn zero(&mut self) {
        match ZeroedSlice::new(self.len) {
            Some(fresh) => *self = fresh,
            None => {
                // SAFETY: `data` points at `len` valid elements; all-zero is a valid `T`.
                unsafe { std::ptr::write_bytes(self.data.as_ptr(), 0, self.len) }
            }
        }
    }
}

impl<T: ZeroIsValid> std::ops::Deref for ZeroedSlice<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `data` is aligned and points at `len` initialised (zero or since written) values
        // owned by `self`.
        unsafe { std::slice::from_raw_parts(self.data.as_ptr(), self.len) }
    }
}

impl<T: ZeroIsValid> std::ops::DerefMut for ZeroedSlice<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.data.as_ptr(), self.len) }
    }
}

impl<T: ZeroIsValid> Drop for ZeroedSlice<T> {
    fn drop(&mut self) {
        // SAFETY: `raw` was allocated with `layout` and is freed once.
        unsafe { dealloc(self.raw.as_ptr(), self.layout) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Copy, Clone, Debug, PartialEq)]
    #[repr(align(64))]
    struct Line([u64; 8]);
    // SAFETY: integers only.
    unsafe impl ZeroIsValid for Line {}

    #[test]
    fn aligned_zeros_that_can_be_written_and_zeroed_again() {
        let mut s = ZeroedSlice::<Line>::new(1000).expect("64 kB");
        assert_eq!(s.len(), 1000);
        assert_eq!(s.as_ptr() as usize % 64, 0);
        assert!(s.iter().all(|l| *l == Line([0; 8])));
        s[999] = Line([7; 8]);
        assert_eq!(s[999].0[3], 7);
        s.zero();
        assert_eq!(s[999], Line([0; 8]));
    }

    #[test]
    fn impossible_sizes_are_refused() {
        assert!(ZeroedSlice::<Line>::new(usize::MAX).is_none());
        assert!(ZeroedSlice::<Line>::new(usize::MAX / 64).is_none());
        assert!(ZeroedSlice::<Line>::new(0).is_none());
    }
}
