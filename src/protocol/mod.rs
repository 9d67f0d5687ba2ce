//! Protocol front ends. `xboard`: CECP v2 (XBoard/WinBoard, python-chess, match runners).

pub mod xboard;
