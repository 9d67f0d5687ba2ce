//! PGN as the match runner reads it back (`--resume`, merging shards): read and replayed without
//! a panic; the moves of a game replayed, printed as SAN, replay to the same moves.
#![no_main]

use fairybridge::notation::san;
use fairybridge::tournament::pgn::read_pgn;
use fairybridge_fuzz::registry;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for game in read_pgn(&text).iter().take(4) {
        let Ok((mut end, moves)) = game.replay(registry()) else {
            continue;
        };
        let mut sans = Vec::new();
        for _ in &moves {
            end.unmake();
        }
        let start = end.clone();
        for mv in &moves {
            sans.push(san::to_san(&mut end, mv));
            end.make(*mv);
        }
        let mut pos = start;
        for (word, mv) in sans.iter().zip(&moves) {
            assert_eq!(
                san::parse_san(&mut pos, word).ok(),
                Some(*mv),
                "SAN {word} does not read back"
            );
            pos.make(*mv);
        }
    }
});
