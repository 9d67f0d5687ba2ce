//! A Zillions save game (`.zsg`): read and replayed against the built-in games without a panic;
//! a game replayed is written back and replays to the same moves.
#![no_main]

use fairybridge::zillions::zsg;
use fairybridge_fuzz::registry;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(game) = zsg::read(&text) else { return };
    let replay = zsg::replay(&game, registry(), None);
    if replay.error.is_some() || replay.variant.is_none() {
        return;
    }
    let Some(start) = replay.positions.first() else { return };
    let written = zsg::write(start, &replay.moves);
    let again = zsg::read(&written).unwrap_or_else(|e| panic!("written zsg does not read: {e:?}\n{written}"));
    let name = replay.variant.as_ref().map(|v| v.name.clone());
    let replayed = zsg::replay(&again, registry(), name.as_deref());
    assert!(
        replayed.error.is_none(),
        "written zsg does not replay: {:?}\n{written}",
        replayed.error
    );
    assert_eq!(
        replayed.moves, replay.moves,
        "written zsg replays to other moves\n{written}"
    );
});
