//! Property tests over random builds (proptest).
//!
//! Builds come two ways: a shipped template (`core::templates`) with random parts added, node
//! counts changed and site settings replaced, which keeps them realistic enough to reach every
//! analysis; and builds drawn from scratch, with random catalog parts, a few unknown ids, random
//! quantities and node counts within the documented limits, random site, usage and cost
//! settings. For every build:
//! - `analysis::analyze` does not panic and every float in the report is finite (checked on
//!   the report's serde form, so no field can be missed; JSON would turn NaN into `null`);
//! - save → load gives the same build, through the text and through a file;
//! - adding a GPU never lowers capex, maximum power or heat;
//! - a higher electricity price never lowers the owned TCO;
//! - under ZeRO-3, more data-parallel GPUs never raise the per-GPU model-state memory
//!   (weights, gradients, optimizer states) of any catalog model, mode and layout.

use proptest::prelude::*;
use rigplan::core::analysis::memory::{self, GradDtype, Mode, ModelSpec, Offload, Optimizer, WeightType, Workload};
use rigplan::core::analysis::{self, Report};
use rigplan::core::build::{
    Build, CostKind, Costs, CustomLine, CustomOffer, CustomPricing, Location, MAX_NODE_COUNT, MAX_QUANTITY, NodeGroup,
    PartLine, PlannedWorkload, PriceOverride, Redundancy, Site, Usage,
};
use rigplan::core::catalog::{Catalog, PartId, PartKind};
use rigplan::core::persist::{build_to_string, check_build, load_build, parse_build_str, save_build};
use rigplan::core::templates::TEMPLATES;
use rigplan::core::units::Currency;
use serde::Serialize;
use std::sync::LazyLock;

static CATALOG: LazyLock<Catalog> = LazyLock::new(|| Catalog::embedded().expect("the shipped catalog loads"));
static PART_IDS: LazyLock<Vec<PartId>> = LazyLock::new(|| CATALOG.all_parts().map(|p| p.id().clone()).collect());
static GPU_IDS: LazyLock<Vec<PartId>> =
    LazyLock::new(|| CATALOG.parts_of(PartKind::Gpu).map(|p| p.id().clone()).collect());

// ---------------------------------------------------------------------------------------------
// Every float of a serialized value

/// A serde serializer that records the path of every float that is NaN or infinite.
#[derive(Default)]
struct NonFinite {
    path: Vec<String>,
    found: Vec<String>,
}

#[derive(Debug)]
struct SerError(String);

impl std::fmt::Display for SerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SerError {}

impl serde::ser::Error for SerError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Self(msg.to_string())
    }
}

/// The paths of the non-finite floats in `value` (empty when all are finite).
pub(crate) fn non_finite_floats<T: Serialize>(value: &T) -> Vec<String> {
    let mut s = NonFinite::default();
    value.serialize(&mut s).expect("the report serializes");
    s.found
}

impl NonFinite {
    fn float(&mut self, v: f64) {
        if !v.is_finite() {
            self.found.push(format!("{} = {v}", self.path.join(".")));
        }
    }

    fn nested<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), SerError> {
        self.path.push(key.to_owned());
        let r = value.serialize(&mut *self);
        self.path.pop();
        r
    }
}

macro_rules! ignore {
    ($($name:ident: $ty:ty),*) => {
        $(fn $name(self, _: $ty) -> Result<(), SerError> { Ok(()) })*
    };
}

impl serde::Serializer for &mut NonFinite {
    type Ok = ();
    type Error = SerError;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    ignore!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64, serialize_char: char,
        serialize_str: &str, serialize_bytes: &[u8], serialize_unit_struct: &'static str);

    fn serialize_f32(self, v: f32) -> Result<(), SerError> {
        self.float(f64::from(v));
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), SerError> {
        self.float(v);
        Ok(())
    }
    fn serialize_none(self) -> Result<(), SerError> {
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), SerError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), SerError> {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), SerError> {
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), SerError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), SerError> {
        self.nested(variant, value)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self, SerError> {
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, SerError> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, SerError> {
        Ok(self)
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self, SerError> {
        Ok(self)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self, SerError> {
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, SerError> {
        Ok(self)
    }
    fn serialize_struct_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self, SerError> {
        Ok(self)
    }
}

macro_rules! elements {
    ($($trait:ident :: $method:ident),*) => {
        $(impl serde::ser::$trait for &mut NonFinite {
            type Ok = ();
            type Error = SerError;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
                self.nested("[]", value)
            }
            fn end(self) -> Result<(), SerError> {
                Ok(())
            }
        })*
    };
}

elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

macro_rules! fields {
    ($($trait:ident),*) => {
        $(impl serde::ser::$trait for &mut NonFinite {
            type Ok = ();
            type Error = SerError;
            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), SerError> {
                self.nested(key, value)
            }
            fn end(self) -> Result<(), SerError> {
                Ok(())
            }
        })*
    };
}

fields!(SerializeStruct, SerializeStructVariant);

impl serde::ser::SerializeMap for &mut NonFinite {
    type Ok = ();
    type Error = SerError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), SerError> {
        self.nested("{key}", key)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        self.nested("{}", value)
    }
    fn end(self) -> Result<(), SerError> {
        Ok(())
    }
}

#[test]
fn the_float_checker_finds_nan_and_infinity_wherever_they_are() {
    #[derive(Serialize)]
    struct Inner {
        ok: f64,
        maybe: Option<f64>,
        list: Vec<f32>,
    }
    #[derive(Serialize)]
    enum Kind {
        Tagged { value: f64 },
    }
    #[derive(Serialize)]
    struct Outer {
        inner: Inner,
        kind: Kind,
        map: std::collections::BTreeMap<String, f64>,
    }
    let value = Outer {
        inner: Inner { ok: 1.0, maybe: Some(f64::NAN), list: vec![1.0, f32::INFINITY] },
        kind: Kind::Tagged { value: f64::NEG_INFINITY },
        map: [("a".to_owned(), 2.0), ("b".to_owned(), f64::NAN)].into_iter().collect(),
    };
    assert_eq!(
        non_finite_floats(&value),
        ["inner.maybe = NaN", "inner.list.[] = inf", "kind.value = -inf", "map.{} = NaN"]
    );
    assert!(non_finite_floats(&Inner { ok: 0.0, maybe: None, list: vec![] }).is_empty());
}

// ---------------------------------------------------------------------------------------------
// Strategies

fn catalog_part() -> impl Strategy<Value = PartId> {
    (0..PART_IDS.len()).prop_map(|i| PART_IDS[i].clone())
}

fn catalog_gpu() -> impl Strategy<Value = PartId> {
    (0..GPU_IDS.len()).prop_map(|i| GPU_IDS[i].clone())
}

/// Mostly catalog parts; now and then an id the catalog does not know (kept and reported).
fn part_id() -> impl Strategy<Value = PartId> {
    prop_oneof![
        12 => catalog_part(),
        1 => "(gpu|cpu|widget)/[a-z0-9-]{1,16}".prop_map(PartId::from),
    ]
}

/// Mostly small quantities, sometimes anything up to the limit.
fn quantity() -> impl Strategy<Value = u32> {
    prop_oneof![8 => 1u32..=8, 1 => 1u32..=MAX_QUANTITY]
}

fn node_count() -> impl Strategy<Value = u32> {
    prop_oneof![8 => 1u32..=16, 1 => 1u32..=MAX_NODE_COUNT]
}

fn part_line() -> impl Strategy<Value = PartLine> {
    (part_id(), quantity(), prop::collection::vec(1u8..=20, 0..=3)).prop_map(|(part, quantity, mut slots)| {
        slots.truncate(quantity as usize);
        PartLine { part, quantity, slots }
    })
}

/// Any text, control characters and newlines included (names are user text).
fn text() -> impl Strategy<Value = String> {
    "(?s).{0,24}"
}

fn redundancy() -> impl Strategy<Value = Redundancy> {
    prop_oneof![Just(Redundancy::None), Just(Redundancy::NPlusOne), Just(Redundancy::NPlusN)]
}

fn node() -> impl Strategy<Value = NodeGroup> {
    (text(), node_count(), prop::collection::vec(part_line(), 0..=10), redundancy(), any::<bool>()).prop_map(
        |(name, count, parts, psu_redundancy, nvlink_bridge)| NodeGroup {
            name,
            count,
            parts,
            psu_redundancy,
            nvlink_bridge,
        },
    )
}

fn site() -> impl Strategy<Value = Site> {
    (
        prop::sample::select(vec!["USD", "CNY", "EUR", "JPY"]),
        0.001f64..1_000.0,
        0.0f64..5.0,
        1.0f64..=3.0,
        -20.0f64..=55.0,
        90.0f64..=480.0,
        1.0f64..=1_000.0,
        prop_oneof![Just(1u8), Just(3u8)],
    )
        .prop_map(
            |(
                currency,
                usd_exchange_rate,
                electricity_per_kwh,
                pue,
                ambient_c,
                circuit_volts,
                circuit_amps,
                phases,
            )| {
                Site {
                    currency: Currency(currency.to_owned()),
                    usd_exchange_rate,
                    electricity_per_kwh,
                    pue,
                    ambient_c,
                    circuit_volts,
                    circuit_amps,
                    circuit_phases: phases,
                }
            },
        )
}

fn planned_workload() -> impl Strategy<Value = PlannedWorkload> {
    (
        prop_oneof![
            4 => (0..CATALOG.models.len()).prop_map(|i| CATALOG.models.iter().nth(i).map(|m| m.id.to_string()).unwrap_or_default()),
            1 => text(),
        ],
        prop_oneof![
            4 => prop::sample::select(vec!["inference-bf16-4k", "inference-q4_k_m-8k", "lora-r16", "qlora-nf4-r64", "full-ft-zero3"]).prop_map(str::to_owned),
            1 => text(),
        ],
        prop::option::of(1.0f64..1e13),
    )
        .prop_map(|(model, workload, run_tokens)| PlannedWorkload { model, workload, run_tokens })
}

fn usage() -> impl Strategy<Value = Usage> {
    (0.0f64..=1.0, 0.25f64..=15.0, prop::option::of(planned_workload()))
        .prop_map(|(utilization, horizon_years, workload)| Usage { utilization, horizon_years, workload })
}

fn custom_offer(i: usize) -> impl Strategy<Value = CustomOffer> {
    (
        text(),
        prop_oneof![
            (0.0f64..100.0, any::<bool>())
                .prop_map(|(price, every_hour)| CustomPricing::PerGpuHour { price, every_hour }),
            (0.0f64..1e7).prop_map(|per_year| CustomPricing::AnnualQuote { per_year }),
        ],
    )
        .prop_map(move |(name, pricing)| CustomOffer { id: format!("offer-{i}"), name, pricing })
}

fn costs() -> impl Strategy<Value = Costs> {
    let percents = prop::collection::vec(0.0f64..=100.0, 7);
    let amounts = prop::collection::vec(0.0f64..1e7, 3);
    (
        percents,
        amounts,
        (any::<bool>(), any::<bool>(), 0.25f64..=30.0, prop::option::of(0.0f64..1e7), 0.0f64..=500.0),
        (custom_offer(0), custom_offer(1), 0usize..=2, 0usize..=3),
    )
        .prop_map(|(pct, amt, (includes_power, includes_dep, life, annual, spot), (o0, o1, n_offers, chosen))| {
            let custom_offers: Vec<CustomOffer> = [o0, o1].into_iter().take(n_offers).collect();
            let chosen_offer = match chosen {
                0 | 1 => custom_offers.get(chosen).map(|o| o.id.clone()),
                2 => Some("no-such-offer".to_owned()),
                _ => None,
            };
            Costs {
                tax_percent: pct[0],
                shipping_percent: pct[1],
                installation_percent: pct[2],
                colocation_per_kw_month: amt[0] / 1e3,
                colocation_includes_power: includes_power,
                maintenance_percent_per_year: pct[3],
                staff_per_year: amt[1],
                licences_per_year: amt[2],
                depreciation_life_years: life,
                residual_percent: pct[4],
                discount_rate_percent: pct[5],
                annual_owned_cost: annual,
                annual_cost_includes_depreciation: includes_dep,
                spot_overhead_percent: spot.min(pct[6] * 5.0),
                custom_offers,
                chosen_offer,
            }
        })
}

fn custom_line() -> impl Strategy<Value = CustomLine> {
    (text(), -1e6f64..1e6, 1u32..=MAX_QUANTITY, any::<bool>()).prop_map(|(name, amount, quantity, opex)| CustomLine {
        name,
        amount,
        quantity,
        kind: if opex { CostKind::OpexPerYear } else { CostKind::Capex },
    })
}

fn price_override() -> impl Strategy<Value = PriceOverride> {
    (part_id(), 0.0f64..1e6, text()).prop_map(|(part, unit_price, note)| PriceOverride { part, unit_price, note })
}

/// A build drawn from scratch.
fn random_build() -> impl Strategy<Value = Build> {
    (
        text(),
        text(),
        prop::collection::vec(node(), 1..=4),
        prop::collection::vec(part_line(), 0..=3),
        prop::collection::vec(price_override(), 0..=2),
        prop::collection::vec(custom_line(), 0..=3),
        (site(), usage(), costs()),
    )
        .prop_map(|(name, description, nodes, cluster, price_overrides, custom_lines, (site, usage, costs))| {
            Build { name, description, nodes, cluster, price_overrides, custom_lines, site, usage, costs }
        })
}

/// A shipped template with parts added to its nodes and cluster, its node counts replaced
/// (sometimes), and its site, usage and cost settings replaced (sometimes).
fn template_build() -> impl Strategy<Value = Build> {
    (
        0..TEMPLATES.len(),
        prop::collection::vec((0usize..4, part_line()), 0..=4),
        prop::option::of(prop::collection::vec(node_count(), 4)),
        prop::option::of((site(), usage(), costs())),
    )
        .prop_map(|(t, extra, counts, settings)| {
            let mut b = TEMPLATES[t].load().expect("template loads");
            for (at, line) in extra {
                let location = if at == 3 { Location::Cluster } else { Location::Node(at % b.nodes.len()) };
                // A merge beyond the quantity limit is refused: the build stays valid.
                let _ = b.add_part(location, &line.part, line.quantity);
            }
            if let Some(counts) = counts {
                for (node, count) in b.nodes.iter_mut().zip(counts) {
                    node.count = count;
                }
            }
            if let Some((site, usage, costs)) = settings {
                b.site = site;
                b.usage = usage;
                b.costs = costs;
            }
            b
        })
}

fn any_build() -> impl Strategy<Value = Build> {
    prop_oneof![template_build(), random_build()]
        .prop_filter("within the documented limits", |b| check_build(b).is_empty())
}

// ---------------------------------------------------------------------------------------------
// Properties

fn analyze(b: &Build) -> Report {
    analysis::analyze(&CATALOG, b)
}

/// Adds one unit of a GPU to a node, if the edit is allowed (the quantity limit).
fn with_one_more_gpu(b: &Build, node: usize, gpu: &PartId) -> Option<Build> {
    let mut more = b.clone();
    more.add_part(Location::Node(node % b.nodes.len()), gpu, 1).ok()?;
    Some(more)
}

/// Relative slack for sums of many floats taken in a different order.
fn at_least(after: f64, before: f64) -> bool {
    after >= before - 1e-9 * before.abs().max(1.0)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn analysis_never_panics_and_every_number_is_finite(b in any_build()) {
        let report = analyze(&b);
        let bad = non_finite_floats(&report);
        prop_assert!(bad.is_empty(), "non-finite figures: {bad:?}");
        let json = serde_json::to_string(&report).expect("JSON");
        prop_assert!(!json.is_empty());
        prop_assert_eq!(report.nodes, b.total_nodes());
    }

    #[test]
    fn save_then_load_is_the_identity(b in any_build()) {
        let text = build_to_string(&b).expect("serializes");
        let back = parse_build_str("prop.ron", &text);
        prop_assert!(back.is_ok(), "{:?}\n{text}", back.err());
        prop_assert_eq!(back.ok(), Some(b.clone()));
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("prop.ron");
        save_build(&path, &b).expect("saves");
        prop_assert_eq!(load_build(&path).expect("loads"), b);
    }

    #[test]
    fn adding_a_gpu_never_lowers_capex_max_power_or_heat(b in any_build(), node in 0usize..4, gpu in catalog_gpu()) {
        let Some(more) = with_one_more_gpu(&b, node, &gpu) else { return Ok(()) };
        let (r0, r1) = (analyze(&b), analyze(&more));
        prop_assert!(at_least(r1.bom.capex, r0.bom.capex), "capex {} -> {}", r0.bom.capex, r1.bom.capex);
        prop_assert!(at_least(r1.tco.capex, r0.tco.capex), "TCO capex {} -> {}", r0.tco.capex, r1.tco.capex);
        prop_assert!(at_least(r1.power.max_watts, r0.power.max_watts), "max DC W {} -> {}", r0.power.max_watts, r1.power.max_watts);
        prop_assert!(at_least(r1.power.wall_watts, r0.power.wall_watts), "max wall W {} -> {}", r0.power.wall_watts, r1.power.wall_watts);
        prop_assert!(at_least(r1.thermal.heat_watts, r0.thermal.heat_watts), "heat W {} -> {}", r0.thermal.heat_watts, r1.thermal.heat_watts);
    }

    #[test]
    fn a_higher_electricity_price_never_lowers_owned_tco(b in any_build(), extra in 0.0f64..5.0) {
        let mut dearer = b.clone();
        dearer.site.electricity_per_kwh += extra;
        prop_assume!(check_build(&dearer).is_empty());
        let (t0, t1) = (analyze(&b).tco, analyze(&dearer).tco);
        prop_assert!(at_least(t1.totals.owned, t0.totals.owned), "owned {} -> {}", t0.totals.owned, t1.totals.owned);
        prop_assert!(at_least(t1.present_value.owned, t0.present_value.owned));
    }
}

/// The strategies reach what the properties are about: builds with power and heat to compare,
/// unknown ids, error findings, cloud options, and node counts up to the limit. Otherwise the
/// properties above could pass on trivial builds.
#[test]
fn random_builds_reach_every_analysis() {
    use proptest::strategy::ValueTree as _;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut powered, mut unknown, mut errors, mut clouds, mut big, mut n) = (0, 0, 0, 0, 0, 0);
    for _ in 0..300 {
        let b = any_build().new_tree(&mut runner).expect("a build").current();
        let r = analyze(&b);
        n += 1;
        powered += usize::from(r.power.wall_watts > 0.0 && r.thermal.heat_watts > 0.0);
        unknown += usize::from(r.diagnostics.iter().any(|d| d.code == "unknown-part"));
        errors += usize::from(r.count(rigplan::core::analysis::Severity::Error) > 0);
        clouds += usize::from(!r.tco.options.is_empty());
        big += usize::from(b.total_nodes() > 256);
    }
    for (what, count) in
        [("powered", powered), ("unknown ids", unknown), ("errors", errors), ("cloud options", clouds), ("big", big)]
    {
        assert!(count >= n / 50, "only {count} of {n} random builds have {what}");
    }
}

/// Per-GPU model states: weights, gradients and optimizer states (the ZeRO paper's "model
/// states", Rajbhandari et al. 2019 §3), without activations, KV cache or CUDA context.
fn model_state_bytes(e: &memory::MemoryEstimate) -> u64 {
    e.per_gpu.weights_bytes.0
        + e.per_gpu.gradients_bytes.map_or(0, |b| b.0)
        + e.per_gpu.optimizer_bytes.map_or(0, |b| b.0)
}

/// A ZeRO-3 training workload of any mode the memory model takes, with random precision,
/// optimizer, offload and tensor/pipeline degrees.
fn zero3_workload() -> impl Strategy<Value = Workload> {
    (
        prop::sample::select(vec![Mode::Train, Mode::Lora, Mode::Qlora]),
        prop::sample::select(vec![
            WeightType::Bf16,
            WeightType::Fp16,
            WeightType::Fp32,
            WeightType::Nf4,
            WeightType::Int4,
        ]),
        prop::sample::select(vec![Optimizer::AdamW, Optimizer::AdamW8bit, Optimizer::Sgd]),
        prop::sample::select(vec![GradDtype::Fp16, GradDtype::Fp32]),
        prop::sample::select(vec![Offload::None, Offload::Optimizer, Offload::All]),
        prop::sample::select(vec![1u32, 2, 4, 8]),
        prop::sample::select(vec![1u32, 2, 4]),
    )
        .prop_map(|(mode, weights, optimizer, grad_dtype, offload, tp, pp)| {
            let mut w = Workload::defaults(mode);
            w.weights = weights;
            w.optimizer = optimizer;
            w.grad_dtype = grad_dtype;
            w.offload = offload;
            w.zero = 3;
            w.tp = tp;
            w.pp = pp;
            w
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn more_gpus_under_zero3_never_raise_per_gpu_model_states(
        model in 0..CATALOG.models.len(), w in zero3_workload(), dp in 1u32..=64, more in 1u32..=512,
    ) {
        let Some(model) = CATALOG.models.iter().nth(model) else { return Ok(()) };
        let spec = ModelSpec::from_model(model);
        let shards = w.tp * w.pp;
        // A combination the memory model refuses (QLoRA on 16-bit weights, tp not dividing the
        // heads, LoRA on a model without layers) says nothing about the invariant.
        let Ok(few) = memory::estimate(&spec, &w, shards * dp) else { return Ok(()) };
        let many = memory::estimate(&spec, &w, shards * (dp + more)).expect("more data-parallel GPUs stay valid");
        prop_assert_eq!(many.layout.dp, dp + more);
        prop_assert!(
            model_state_bytes(&many) <= model_state_bytes(&few),
            "{}: {} B per GPU on {} GPUs, {} B on {}", model.id, model_state_bytes(&few), shards * dp,
            model_state_bytes(&many), shards * (dp + more)
        );
    }
}

/// The ZeRO-3 property is about real savings: sharding a 7B model's states over 8 data-parallel
/// GPUs instead of 1 cuts them several-fold (16 B/param / 8 plus the gathered live
/// parameters, ZeRO paper §5), so the property above compares numbers that move.
#[test]
fn zero3_sharding_moves_the_numbers_the_property_compares() {
    let model = CATALOG.models.iter().find(|m| m.id.to_string() == "model/meta-llama-2-7b").expect("Llama 2 7B");
    let spec = ModelSpec::from_model(model);
    let mut w = Workload::defaults(Mode::Train);
    w.zero = 3;
    let one = model_state_bytes(&memory::estimate(&spec, &w, 1).expect("valid"));
    let eight = model_state_bytes(&memory::estimate(&spec, &w, 8).expect("valid"));
    assert!(eight * 4 < one, "{one} B on 1 GPU, {eight} B on 8");
}
