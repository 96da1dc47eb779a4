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
    let code = rigplan::cli::main_with_args(args, &mut stdout.lock(), &mut stderr.lock());
    let _ = std::io::stdout().flush();
    ExitCode::from(code)
}
