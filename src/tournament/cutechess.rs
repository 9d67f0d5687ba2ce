//! cutechess-cli's (and fastchess's) single-dash command line for `match`, as scripts in the wild
//! write it (`-engine cmd=sf proto=uci -each tc=10+0.1 -games 2 -pgnout out.pgn`): each `-option`
//! becomes ours, with its values rewritten where the two differ. An option or value we do not
//! support is refused with its name, never accepted and ignored.
//!
//! Where the two runners mean different things, this reads cutechess-cli's meaning: `-sprt` is its
//! trinomial test (unless `model=` says otherwise), `-variant standard` is orthodox chess,
//! `-srand` the seed. `-recover` and `-repeat` (2) are what this runner always does: a crash
//! forfeits one game and every game starts its engines afresh; each opening is played once with
//! each colour.

/// What a cutechess-cli option becomes.
enum Rewrite {
    /// Our flag of this name, its values as they are.
    Flag(&'static str),
    /// Our behaviour anyway: dropped, with any values it takes checked.
    Always,
}

/// cutechess-cli's (and fastchess's) options, ours in single-dash form, and what they become.
const OPTIONS: &[(&str, Rewrite)] = &[
    ("engine", Rewrite::Flag("--engine")),
    ("each", Rewrite::Flag("--each")),
    ("games", Rewrite::Flag("--games")),
    ("rounds", Rewrite::Flag("--rounds")),
    ("concurrency", Rewrite::Flag("--concurrency")),
    ("openings", Rewrite::Flag("--openings")),
    ("pgnout", Rewrite::Flag("--pgn")),
    ("pgn", Rewrite::Flag("--pgn")),
    ("sprt", Rewrite::Flag("--sprt")),
    ("draw", Rewrite::Flag("--draw")),
    ("resign", Rewrite::Flag("--resign")),
    ("maxmoves", Rewrite::Flag("--maxmoves")),
    ("variant", Rewrite::Flag("--variant")),
    ("tournament", Rewrite::Flag("--tournament")),
    ("srand", Rewrite::Flag("--seed")),
    ("seed", Rewrite::Flag("--seed")),
    ("ratinginterval", Rewrite::Flag("--ratinginterval")),
    ("event", Rewrite::Flag("--event")),
    ("debug", Rewrite::Flag("--debug")),
    ("resume", Rewrite::Flag("--resume")),
    ("shard", Rewrite::Flag("--shard")),
    ("zsg", Rewrite::Flag("--zsg")),
    ("timemargin", Rewrite::Flag("--timemargin")),
    ("recover", Rewrite::Always),
    ("repeat", Rewrite::Always),
];

/// cutechess-cli and fastchess options we know and do not support, with the reason.
const UNSUPPORTED: &[(&str, &str)] = &[
    ("epdout", "no EPD output: --pgn keeps every game"),
    ("wait", "games follow each other at once"),
    ("noswap", "each opening is played once with each colour"),
    ("reverse", "each opening is played once with each colour"),
    ("bookmode", "no opening books for engines: use -openings"),
    ("tb", "no tablebase adjudication"),
    ("tbpieces", "no tablebase adjudication"),
    ("tbignore50", "no tablebase adjudication"),
    ("site", "the PGN Site tag is not set"),
    ("resultformat", "one result format"),
    ("output", "one output format (cutechess-cli's)"),
    ("autosave", "use --resume FILE"),
    ("report", "one report format"),
    ("log", "use -debug"),
    ("use-affinity", "no CPU affinity"),
    ("affinity", "no CPU affinity"),
    ("randomseed", "use -srand N"),
    ("config", "no configuration files"),
];

/// Is `word` a cutechess-style single-dash option (`-engine`, not `--engine`, `-5` or `-`)?
fn single_dash(word: &str) -> Option<&str> {
    let name = word.strip_prefix('-')?;
    (name.len() > 1 && name.starts_with(|c: char| c.is_ascii_alphabetic())).then_some(name)
}

/// Does the `match` command line use the single-dash form?
pub fn is_cutechess_form(words: &[String]) -> bool {
    words.iter().any(|w| single_dash(w).is_some())
}

/// Rewrites the words after `match` from the single-dash form into ours; words already in our
/// form pass unchanged. `Err` names what is not supported.
///
/// # Errors
///
/// An option of the cutechess-cli style that this runner does not take, or one missing its value.
pub fn translate(words: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let word = &words[i];
        i += 1;
        let Some(name) = single_dash(word) else {
            out.push(word.clone());
            continue;
        };
        // The option's values: the words up to the next option.
        let end = (i..words.len())
            .find(|&j| words[j].starts_with("--") || single_dash(&words[j]).is_some())
            .unwrap_or(words.len());
        let values = &words[i..end];
        i = end;
        let Some((_, rewrite)) = OPTIONS.iter().find(|(n, _)| *n == name) else {
            return Err(match UNSUPPORTED.iter().find(|(n, _)| *n == name) {
                Some((_, why)) => format!("{word} is not supported ({why})"),
                None => format!("{word}: unknown option (cutechess-cli form: see fairybridge match --help)"),
            });
        };
        match rewrite {
            Rewrite::Always => always(name, values)?,
            Rewrite::Flag(flag) => {
                out.push(flag.to_string());
                out.extend(rewrite_values(name, values)?);
            }
        }
    }
    Ok(out)
}

/// `-recover` takes no value; `-repeat` at most `2` (cutechess-cli's default count).
fn always(name: &str, values: &[String]) -> Result<(), String> {
    match (name, values) {
        ("recover", []) | ("repeat", []) => Ok(()),
        ("repeat", [n]) if n == "2" => Ok(()),
        ("repeat", [n]) => Err(format!(
            "-repeat {n} is not supported: each opening is played twice, once with each colour"
        )),
        _ => Err(format!("-{name} takes no value, got \"{}\"", values.join(" "))),
    }
}

/// The values of a single-dash option as our flag takes them.
fn rewrite_values(name: &str, values: &[String]) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = values.to_vec();
    match name {
        // cutechess-cli: `-pgnout FILE [min] [fi]`; fastchess: `-pgnout file=FILE [KEY=VALUE]...`.
        "pgnout" => {
            let mut file = None;
            for v in values {
                match v.split_once('=') {
                    None if file.is_none() => file = Some(v.clone()),
                    Some(("file", f)) => file = Some(f.to_string()),
                    _ => {
                        return Err(format!(
                            "-pgnout: \"{v}\" is not supported (the PGN always has every move with its comment)"
                        ));
                    }
                }
            }
            out = vec![file.ok_or("-pgnout: no file")?];
        }
        // cutechess-cli's SPRT is the trinomial one.
        "sprt" if !values.iter().any(|v| v.starts_with("model=")) => out.push("model=trinomial".to_string()),
        "variant" => {
            if let [v] = values
                && v == "standard"
            {
                out = vec![crate::variants::NORMAL.to_string()];
            }
        }
        _ => {}
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn single_dash_options_become_ours() {
        let got = translate(&words(
            "-engine cmd=a proto=uci -each tc=10+0.1 -games 2 -rounds 5 -repeat -recover \
             -pgnout out.pgn min -srand 7 -variant standard -sprt elo0=0 elo1=5",
        ));
        assert_eq!(
            got.unwrap_err(),
            "-pgnout: \"min\" is not supported (the PGN always has every move with its comment)"
        );
        let got = translate(&words(
            "-engine cmd=a proto=uci -each tc=10+0.1 -games 2 -rounds 5 -repeat 2 -recover \
             -pgnout file=out.pgn -srand 7 -variant standard -sprt elo0=0 elo1=5 --debug",
        ))
        .unwrap();
        assert_eq!(
            got,
            words(
                "--engine cmd=a proto=uci --each tc=10+0.1 --games 2 --rounds 5 --pgn out.pgn --seed 7 \
                 --variant normal --sprt elo0=0 elo1=5 model=trinomial --debug"
            )
        );
        for (line, wanted) in [
            ("-wait 100", "-wait is not supported"),
            ("-frobnicate 3", "-frobnicate: unknown option"),
            ("-repeat 4", "-repeat 4 is not supported"),
            ("-recover yes", "-recover takes no value"),
        ] {
            let err = translate(&words(line)).unwrap_err();
            assert!(err.contains(wanted), "{line}: {err}");
        }
        // Values that begin with a dash are values (`arg=-x`, `-5` as a number).
        assert!(!is_cutechess_form(&words("--engine cmd=a arg=-x --draw score=-5")));
        assert_eq!(translate(&words("-maxmoves 100")).unwrap(), words("--maxmoves 100"));
    }
}
