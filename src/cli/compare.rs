//! `rigplan compare`: 2–4 builds side by side, as Markdown, CSV, JSON or HTML.
//!
//! Loads every build, calls [`compare::compare`] (TCO over a common horizon, speed rows for
//! one model) and renders the result with [`export::render_comparison`]. Output goes to
//! standard output unless `-o FILE` is given. Exit codes: 0 compared, 2 bad input (a build
//! that cannot be read, fewer than 2 or more than 4 builds, an unknown model, a bad option).

use super::export::write_output;
use super::fit::parse_count_within;
use super::{Exit, load_build, load_catalog};
use crate::core::analysis::tco::MAX_RUN_TOKENS;
use crate::core::compare::{self, CompareOptions};
use crate::core::export::{self, CompareFormat};
use crate::core::i18n::Lang;
use anyhow::Context as _;
use clap::ValueEnum;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `rigplan compare`.
#[derive(Debug, Clone, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct CompareArgs {
    /// Two to four build files; the first is the baseline the deltas are taken against.
    #[arg(required = true, num_args = 2..=4, value_name = "BUILD")]
    pub builds: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "md")]
    pub format: CompareFormatArg,
    /// Write to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The model of the speed rows (catalog id, the `model/` prefix may be left out; default
    /// meta-llama-3.1-8b).
    #[arg(long, value_name = "ID")]
    pub model: Option<String>,
    /// Tokens the training-time rows are given for (default 1B), e.g. 2e9 or 500M.
    #[arg(long, value_name = "N")]
    pub train_tokens: Option<String>,
    /// TCO horizon in years, 0.25–15 (default 3).
    #[arg(long, value_name = "N")]
    pub years: Option<f64>,
    /// Language of the labels, headings and notes: en or zh-CN (default: the locale, LC_ALL /
    /// LANG). JSON keys stay English.
    #[arg(long, value_name = "LANG", value_parser = super::texts::parse_lang)]
    pub lang: Option<Lang>,
}

/// Comparison formats on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CompareFormatArg {
    #[value(alias = "markdown")]
    Md,
    Csv,
    Json,
    Html,
}

impl From<CompareFormatArg> for CompareFormat {
    fn from(f: CompareFormatArg) -> Self {
        match f {
            CompareFormatArg::Md => Self::Markdown,
            CompareFormatArg::Csv => Self::Csv,
            CompareFormatArg::Json => Self::Json,
            CompareFormatArg::Html => Self::Html,
        }
    }
}

/// Runs `rigplan compare`.
///
/// # Errors
/// Bad input: see the module docs.
pub fn run_compare(out: &mut dyn Write, catalog_dir: Option<&Path>, args: &CompareArgs) -> anyhow::Result<Exit> {
    let lang = args.lang.unwrap_or_else(Lang::from_env);
    let mut options = CompareOptions { model: args.model.clone(), lang, ..CompareOptions::default() };
    if let Some(t) = &args.train_tokens {
        options.train_tokens = parse_count_within(t, 1.0, MAX_RUN_TOKENS).context("--train-tokens")?;
    }
    if let Some(y) = args.years {
        options.horizon_years = y;
    }
    let catalog = load_catalog(catalog_dir)?;
    let builds = args.builds.iter().map(|p| load_build(p)).collect::<anyhow::Result<Vec<_>>>()?;
    let refs: Vec<&_> = builds.iter().collect();
    let comparison = compare::compare(&catalog, &refs, &options).map_err(|e| anyhow::anyhow!(e.message_in(lang)))?;
    let bytes = export::render_comparison(args.format.into(), &comparison)?;
    let inputs: Vec<&Path> = args.builds.iter().map(PathBuf::as_path).collect();
    write_output(out, args.output.as_deref(), &bytes, "the comparison", &inputs, catalog_dir)?;
    Ok(Exit::Ok)
}
