//! The `rigplan` binary: with a subcommand it runs the CLI; without one it opens the app
//! (feature `gui`) or prints help.

use std::io::Write as _;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    #[cfg(feature = "gui")]
    {
        use clap::Parser as _;
        if let Ok(cli) = rigplan::cli::Cli::try_parse_from(&args)
            && cli.command.is_none()
        {
            return match rigplan::gui::run(cli.file.as_deref(), cli.catalog.as_deref()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    let _ = writeln!(std::io::stderr(), "error: {e:#}");
                    ExitCode::from(2)
                }
            };
        }
    }
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    // Buffered: stdout writes each line on its own otherwise, a system call per line of a
    // report (the CLI flushes at the end, and a closed pipe still ends the run quietly).
    // 32 KiB holds a whole report's text and stays under glibc's 64 KiB
    // FASTBIN_CONSOLIDATION_THRESHOLD (malloc/malloc.c): freeing a larger buffer at exit
    // consolidated the whole heap first, 1 % of a `rigplan report` process (issue 19).
    let mut out = std::io::BufWriter::with_capacity(32 * 1024, stdout.lock());
    let code = rigplan::cli::main_with_args(args, &mut out, &mut stderr.lock());
    drop(out);
    let _ = std::io::stdout().flush();
    ExitCode::from(code)
}
