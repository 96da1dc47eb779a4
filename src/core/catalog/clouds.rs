//! Cloud GPU offers: the rent side of the TCO comparison.
//!
//! Theory of operation: `catalog/clouds.ron` lists offers (provider, instance, GPU id, GPUs per
//! instance, on-demand, 1- and 3-year reserved and spot prices per instance-hour and a monthly
//! subscription per instance-month, all in the offer's currency (USD or CNY), region, price
//! date, how the price was checked, source). It is embedded in the binary
//! ([`EMBEDDED_CLOUDS`]); a user catalog folder may hold its own `clouds.ron` whose entries
//! extend the embedded ones or replace them by id, exactly like part files. Loading reports
//! every problem with `file:line:col`; the GPU of an offer is checked against the parts catalog
//! so that matching an offer to a build's GPUs cannot silently fail.

use super::validate::{MAX_NAME_CHARS, MAX_TEXT_CHARS, is_valid_date, text_too_long};
use super::{Catalog, CatalogProblem, Origin, PartId, PartKind, ProblemSeverity};
use crate::core::units::{Currency, format_number};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;

/// File name of the cloud offers in the catalog folder and in a user catalog folder.
pub const CLOUDS_FILE: &str = "clouds.ron";

/// The cloud offers shipped with rigplan.
pub const EMBEDDED_CLOUDS: &str = include_str!("../../../catalog/clouds.ron");

/// Plausible range of an instance-hour price, USD: the cheapest consumer-GPU pods cost a few
/// cents per hour and the largest 8-GPU instances about 100 USD per hour (Azure ND H100 v5,
/// 98.32 USD/h in `clouds.ron`); the bounds catch per-month or per-year figures typed as hourly.
const MIN_USD_PER_HOUR: f64 = 0.01;
const MAX_USD_PER_HOUR: f64 = 2_000.0;
/// Yuan bounds of the same prices: 8 CNY per USD is above every yuan rate since 1994 (see
/// `validate::MAX_PRICE`), so a CNY price in range is one the USD range would accept.
const MAX_CNY_PER_HOUR: f64 = 16_000.0;
/// Hours in the month a monthly subscription covers, as Chinese providers bill it (30 days ×
/// 24 h = 720 h; Alibaba Cloud and Tencent Cloud subscription months), for the check that a
/// monthly price is below the same month on demand.
const HOURS_PER_SUBSCRIPTION_MONTH: f64 = 720.0;
/// Most GPUs one cloud instance exposes (16-GPU A2 mega instances are the largest listed).
const MAX_GPUS_PER_INSTANCE: u32 = 64;

/// How far an offer's prices were checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
// RON files spell variants as in Rust (`ThirdParty`); JSON output uses snake_case.
#[serde(rename_all(serialize = "snake_case"))]
pub enum PriceCheck {
    /// Read in a stored copy of the provider's own pricing page or billing catalog.
    ProviderPage,
    /// Read in a dated third-party transcription of the provider's page or catalog.
    ThirdParty,
    /// No readable source states the price unambiguously; the offer's `source` says why.
    Unverified,
}

impl fmt::Display for PriceCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::ProviderPage => "provider page",
            Self::ThirdParty => "third-party transcription",
            Self::Unverified => "unverified",
        })
    }
}

fn usd() -> Currency {
    Currency::default()
}

/// One rentable instance type and its prices, in `currency`: per instance-hour, and per
/// instance-month for a monthly subscription. The fields' older names with `_usd_`
/// (`on_demand_usd_per_hour`, …) are still read, for offers in USD.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CloudOffer {
    /// Stable id, a slug such as `aws-p5-48xlarge`.
    pub id: String,
    pub provider: String,
    /// The provider's name for the instance type.
    pub instance: String,
    /// The GPU, as a catalog GPU id.
    pub gpu: PartId,
    pub gpus_per_instance: u32,
    pub region: String,
    /// The currency of every price of the offer: `USD` (the default) or `CNY`.
    #[serde(default = "usd")]
    pub currency: Currency,
    #[serde(alias = "on_demand_usd_per_hour")]
    pub on_demand_per_hour: f64,
    /// Effective hourly price of a 1-year commitment that bills every hour.
    #[serde(default, alias = "reserved_1y_usd_per_hour")]
    pub reserved_1y_per_hour: Option<f64>,
    /// Effective hourly price of a 3-year commitment that bills every hour.
    #[serde(default, alias = "reserved_3y_usd_per_hour")]
    pub reserved_3y_per_hour: Option<f64>,
    /// Interruptible (spot / preemptible) price where the provider publishes one.
    #[serde(default, alias = "spot_usd_per_hour")]
    pub spot_per_hour: Option<f64>,
    /// A monthly subscription (包月, 包年包月) per instance-month, billed whether used or not.
    #[serde(default)]
    pub monthly_per_month: Option<f64>,
    /// Date of the prices, `YYYY-MM` or `YYYY-MM-DD`.
    pub price_date: String,
    pub price_check: PriceCheck,
    /// Where the prices came from, and what could not be found.
    pub source: String,
}

impl CloudOffer {
    /// Price per GPU-hour on demand, in the offer's currency.
    #[must_use]
    pub fn on_demand_per_gpu_hour(&self) -> f64 {
        self.on_demand_per_hour / f64::from(self.gpus_per_instance.max(1))
    }
}

/// Offers parsed from one file, with the position of each id.
fn parse_offers(label: &str, text: &str, problems: &mut Vec<CatalogProblem>) -> Vec<(CloudOffer, Origin)> {
    let Some(offers) = super::parse_list::<CloudOffer>(label, text, problems) else { return Vec::new() };
    let mut seen: HashMap<String, Origin> = HashMap::new();
    let mut out = Vec::with_capacity(offers.len());
    let mut ids = super::IdLocator::new(text);
    for offer in offers {
        let (line, col) = ids.locate(&offer.id);
        let origin = Origin { file: label.to_owned(), line, col };
        if let Some(first) = seen.get(&offer.id) {
            problems.push(CatalogProblem::error(
                label.to_owned(),
                Some((line, col)),
                format!("duplicate cloud offer id `{}` (first defined at {first})", offer.id),
            ));
            continue;
        }
        seen.insert(offer.id.clone(), origin.clone());
        out.push((offer, origin));
    }
    out
}

impl Catalog {
    /// Loads cloud offers from `(file label, text)` sources in order (a later file replaces an
    /// earlier file's offer with the same id), replacing the catalog's offers, and returns every
    /// problem found. Call it after the parts are loaded: offers are checked against the GPUs.
    pub fn load_clouds(&mut self, sources: &[(String, String)]) -> Vec<CatalogProblem> {
        let mut problems = Vec::new();
        let mut offers: Vec<CloudOffer> = Vec::new();
        let mut origins: HashMap<String, Origin> = HashMap::new();
        // Where each id is in `offers`, so that merging stays linear in the offers.
        let mut at: HashMap<String, usize> = HashMap::new();
        for (label, text) in sources {
            for (offer, origin) in parse_offers(label, text, &mut problems) {
                origins.insert(offer.id.clone(), origin);
                if let Some(existing) = at.get(&offer.id).and_then(|&i| offers.get_mut(i)) {
                    *existing = offer;
                } else {
                    at.insert(offer.id.clone(), offers.len());
                    offers.push(offer);
                }
            }
        }
        offers.sort_by(|a, b| a.id.cmp(&b.id));
        self.clouds = offers;
        self.cloud_origins = origins;
        problems.extend(self.validate_clouds());
        problems
    }

    /// The embedded offers as a source list for [`Catalog::load_clouds`].
    #[must_use]
    pub fn embedded_cloud_sources() -> Vec<(String, String)> {
        vec![(format!("catalog/{CLOUDS_FILE}"), EMBEDDED_CLOUDS.to_owned())]
    }

    /// Looks an offer up by id.
    #[must_use]
    pub fn cloud(&self, id: &str) -> Option<&CloudOffer> {
        self.clouds.iter().find(|o| o.id == id)
    }

    /// Semantic checks of the loaded offers: slugs, names, GPU references, price ranges and
    /// order (a reservation dearer than on-demand is a typo), dates.
    fn validate_clouds(&self) -> Vec<CatalogProblem> {
        let mut problems = Vec::new();
        for offer in &self.clouds {
            let origin = self.cloud_origins.get(&offer.id);
            let mut push = |severity: ProblemSeverity, message: String| {
                problems.push(CatalogProblem {
                    severity,
                    file: origin.map_or_else(|| CLOUDS_FILE.to_owned(), |o| o.file.clone()),
                    line: origin.map(|o| o.line),
                    col: origin.map(|o| o.col),
                    message: format!("{}: {message}", offer.id),
                });
            };
            let slug_ok = !offer.id.is_empty()
                && offer
                    .id
                    .chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || matches!(ch, '-' | '.' | '_'));
            if !slug_ok {
                push(ProblemSeverity::Error, "id may only use a-z, 0-9, '-', '.', '_'".to_owned());
            }
            for (field, value) in [
                ("id", &offer.id),
                ("provider", &offer.provider),
                ("instance", &offer.instance),
                ("region", &offer.region),
                ("source", &offer.source),
            ] {
                if value.trim().is_empty() {
                    push(ProblemSeverity::Error, format!("{field} is empty"));
                }
                let max = if field == "source" { MAX_TEXT_CHARS } else { MAX_NAME_CHARS };
                if let Some(message) = text_too_long(field, value, max) {
                    push(ProblemSeverity::Error, message);
                }
            }
            if offer.gpu.kind() != Some(PartKind::Gpu) {
                push(ProblemSeverity::Error, format!("gpu `{}` is not a GPU id (gpu/…)", offer.gpu));
            } else if self.gpu(&offer.gpu).is_none() {
                push(
                    ProblemSeverity::Error,
                    format!("gpu `{}` is not a GPU in the parts catalog, so no build could match the offer", offer.gpu),
                );
            }
            if offer.gpus_per_instance == 0 || offer.gpus_per_instance > MAX_GPUS_PER_INSTANCE {
                push(
                    ProblemSeverity::Error,
                    format!("gpus_per_instance = {} is outside 1–{MAX_GPUS_PER_INSTANCE}", offer.gpus_per_instance),
                );
            }
            let currency = offer.currency.0.as_str();
            let (max_hour, unit) = match currency {
                "USD" => (MAX_USD_PER_HOUR, "USD"),
                "CNY" => (MAX_CNY_PER_HOUR, "CNY"),
                _ => {
                    push(
                        ProblemSeverity::Error,
                        format!("currency `{currency}` is not one rigplan converts; offers are priced in USD or CNY"),
                    );
                    continue;
                }
            };
            let mut price = |field: &str, value: f64, scale: f64, per: &str| {
                let (min, max) = (MIN_USD_PER_HOUR * scale, max_hour * scale);
                if !value.is_finite() || !(min..=max).contains(&value) {
                    let (value, min, max) = (format_number(value), format_number(min), format_number(max));
                    push(
                        ProblemSeverity::Error,
                        format!(
                            "{field} = {value} is outside the plausible range {min}–{max} {unit} per instance-{per}"
                        ),
                    );
                    return false;
                }
                true
            };
            let od_ok = price("on_demand_per_hour", offer.on_demand_per_hour, 1.0, "hour");
            let mut cheaper = Vec::new();
            for (field, value) in [
                ("reserved_1y_per_hour", offer.reserved_1y_per_hour),
                ("reserved_3y_per_hour", offer.reserved_3y_per_hour),
                ("spot_per_hour", offer.spot_per_hour),
            ] {
                if let Some(v) = value
                    && price(field, v, 1.0, "hour")
                    && od_ok
                    && v > offer.on_demand_per_hour
                {
                    cheaper.push(field);
                }
            }
            if let Some(m) = offer.monthly_per_month
                && price("monthly_per_month", m, HOURS_PER_SUBSCRIPTION_MONTH, "month")
                && od_ok
                && m > offer.on_demand_per_hour * HOURS_PER_SUBSCRIPTION_MONTH
            {
                cheaper.push("monthly_per_month");
            }
            for field in cheaper {
                push(
                    ProblemSeverity::Warning,
                    format!("{field} is above the on-demand price; discounted terms are normally cheaper"),
                );
            }
            if !is_valid_date(&offer.price_date) {
                push(ProblemSeverity::Error, format!("price_date `{}` is not YYYY-MM or YYYY-MM-DD", offer.price_date));
            }
        }
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offer_text(id: &str, od: f64, r1: &str) -> String {
        format!(
            r#"[(
    id: "{id}",
    provider: "Test",
    instance: "t.8x",
    gpu: "gpu/test-gpu",
    gpus_per_instance: 8,
    region: "r",
    on_demand_usd_per_hour: {od},
    reserved_1y_usd_per_hour: {r1},
    price_date: "2026-01",
    price_check: ThirdParty,
    source: "test",
)]"#
        )
    }

    #[test]
    fn overlay_replaces_by_id_and_problems_have_positions() {
        let mut cat = Catalog::default();
        let problems = cat.load_clouds(&[
            ("base".to_owned(), offer_text("t-a", 10.0, "5.0")),
            ("user".to_owned(), offer_text("t-a", 12.0, "20.0")),
        ]);
        assert_eq!(cat.clouds.len(), 1);
        assert_eq!(cat.cloud("t-a").map(|o| o.on_demand_per_hour), Some(12.0));
        assert_eq!(cat.cloud_origins["t-a"].file, "user");
        // The GPU is not in this empty parts catalog (error) and the reservation is dearer than
        // on-demand (warning), both at the id's line 2, column 9.
        let at: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert!(at.iter().any(|p| p.starts_with("user:2:9: t-a: gpu `gpu/test-gpu` is not a GPU")), "{at:?}");
        assert!(at.iter().any(|p| p.starts_with("user:2:9: warning: t-a: reserved_1y_per_hour is above")), "{at:?}");
        assert_eq!(problems.iter().filter(|p| p.is_error()).count(), 1, "{at:?}");
    }

    #[test]
    fn bad_price_and_syntax_are_errors() {
        let mut cat = Catalog::default();
        let problems = cat.load_clouds(&[("c.ron".to_owned(), offer_text("t-b", 0.0, "None"))]);
        assert!(problems.iter().any(|p| p.is_error() && p.message.contains("on_demand_per_hour = 0")));
        let problems = cat.load_clouds(&[("c.ron".to_owned(), "[(\n  id: \"x\",\n  provider: 3,\n)]".to_owned())]);
        let p = problems.first().expect("a syntax problem");
        assert_eq!((p.line, p.is_error()), (Some(3), true));
    }
}
