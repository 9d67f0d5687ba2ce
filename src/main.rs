//! The `fairybridge` command.

fn main() {
    std::process::exit(fairybridge::cli::run());
}
