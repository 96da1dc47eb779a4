//! The UI-free core: catalog, build document, analyses, exports and persistence.
//!
//! Everything here is deterministic and free of side effects except [`persist`], which reads
//! and writes build files. A bad build is not an error: analyses return reports with
//! diagnostics. Errors are for I/O and malformed files.

pub mod advisor;
pub mod analysis;
pub mod build;
pub mod catalog;
pub mod compare;
pub mod export;
pub mod files;
pub mod i18n;
pub mod persist;
pub mod placement;
pub mod reference;
pub mod resolve;
pub mod templates;
pub mod units;
