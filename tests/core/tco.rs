//! TCO model: every cost line, break-even, present value, sensitivity and the field guides'
//! example, checked against hand calculations (each test shows its arithmetic).

use proptest::prelude::*;
use rigplan::core::analysis::tco::{
    self, Billing, CloudOptionInput, PowerInput, Reading, Scenario, Term, TornadoOutput, TornadoParameter,
    WorkloadInput, annuity_factor, monthly_rate,
};
use rigplan::core::analysis::{self, Severity};
use rigplan::core::build::{Build, CostKind, Costs, CustomLine, CustomOffer, CustomPricing, Location, NodeGroup};
use rigplan::core::catalog::{Catalog, PartId};
use rigplan::core::units::Currency;

use crate::approx::assert_close as close;

fn option(id: &str, billing: Billing, price: f64) -> CloudOptionInput {
    CloudOptionInput {
        id: id.to_owned(),
        offer: id.to_owned(),
        label: id.to_owned(),
        term: Term::Custom,
        billing,
        instances: 1,
        gpus_rented: 8,
        price,
        overhead_fraction: 0.0,
        gpu: None,
        region: None,
        price_date: None,
        price_check: None,
        source: "test".to_owned(),
    }
}

/// A scenario with every owned cost line set (numbers chosen to be easy to follow by hand).
fn full_scenario() -> Scenario {
    Scenario {
        currency: Currency("EUR".to_owned()),
        usd_exchange_rate: 0.9,
        parts_capex: 100_000.0,
        custom_capex: 5_000.0,
        custom_opex_per_year: 500.0,
        costs: Costs {
            tax_percent: 10.0,
            shipping_percent: 2.0,
            installation_percent: 3.0,
            colocation_per_kw_month: 150.0,
            maintenance_percent_per_year: 10.0,
            staff_per_year: 20_000.0,
            licences_per_year: 1_000.0,
            depreciation_life_years: 4.0,
            residual_percent: 25.0,
            ..Costs::default()
        },
        electricity_per_kwh: 0.2,
        pue: 1.5,
        utilization: 0.5,
        horizon_years: 3.0,
        gpus: 8,
        gpu_model: None,
        power: Some(PowerInput { wall_idle_watts: 1_000.0, wall_max_watts: 5_000.0 }),
        options: vec![option("cloud", Billing::UsedHours, 10.0)],
        primary: Some(0),
        workload: None,
    }
}

#[test]
fn every_owned_cost_line_by_hand() {
    let s = full_scenario();
    // Capex: 100,000 × (1 + 10 % + 2 % + 3 %) + 5,000 custom = 120,000.
    let c = s.capex_lines();
    close(c.tax, 10_000.0, 1e-9);
    close(c.shipping, 2_000.0, 1e-9);
    close(c.installation, 3_000.0, 1e-9);
    close(s.capex(), 120_000.0, 1e-9);
    let l = s.owned_lines_at(0.5);
    // Average wall power 1,000 + 0.5 × 4,000 = 3,000 W; 3 kW × 8,760 h × PUE 1.5 × 0.2/kWh.
    close(l.energy, 3.0 * 8_760.0 * 1.5 * 0.2, 1e-9);
    close(l.energy, 7_884.0, 1e-9);
    // Colocation on the 5 kW maximum: 150 × 5 × 12 = 9,000.
    close(l.colocation, 9_000.0, 1e-9);
    // Maintenance 10 % of 120,000.
    close(l.maintenance, 12_000.0, 1e-9);
    close(l.staff, 20_000.0, 1e-9);
    close(l.licences, 1_000.0, 1e-9);
    close(l.custom_opex, 500.0, 1e-9);
    close(l.entered_opex, 0.0, 0.0);
    close(l.total, 7_884.0 + 9_000.0 + 12_000.0 + 20_000.0 + 1_000.0 + 500.0, 1e-9);
    // Depreciation: residual 25 % of 120,000 = 30,000; (120,000 − 30,000) / 4 = 22,500 per year;
    // after 3 years the book value is 120,000 − 67,500 = 52,500.
    close(s.residual_value(), 30_000.0, 1e-9);
    close(s.depreciation_per_year(), 22_500.0, 1e-9);
    close(s.book_value(3.0), 52_500.0, 1e-9);
    close(s.book_value(10.0), 30_000.0, 1e-9);
    // Owned total: 120,000 + 3 × 50,384 − 52,500 = 218,652; cash 271,152.
    let t = tco::evaluate(&s);
    close(t.totals.owned, 218_652.0, 1e-6);
    close(t.totals.owned_cash, 271_152.0, 1e-6);
    close(t.totals.residual_credit, 52_500.0, 1e-6);
    assert_eq!(t.reading, Reading::Computed);
}

#[test]
fn colocation_with_power_included_drops_energy_and_no_power_drops_both() {
    let mut s = full_scenario();
    s.costs.colocation_includes_power = true;
    let l = s.owned_lines_at(0.5);
    close(l.energy, 0.0, 0.0);
    close(l.colocation, 9_000.0, 1e-9);
    s.power = None;
    let l = s.owned_lines_at(0.5);
    close(l.energy + l.colocation, 0.0, 0.0);
}

#[test]
fn cloud_billing_by_hand() {
    let s = full_scenario();
    // On-demand pays used hours: 10/h × 8,760 × 0.5 = 43,800 per year.
    close(s.option_per_year_at(&option("od", Billing::UsedHours, 10.0), 0.5), 43_800.0, 1e-9);
    // Reserved pays every hour: 6 × 8,760 = 52,560 whatever the utilization.
    close(s.option_per_year_at(&option("r", Billing::EveryHour, 6.0), 0.1), 52_560.0, 1e-9);
    // Spot with 10 % interruption overhead: 4 × 8,760 × 0.5 × 1.1 = 19,272.
    let mut spot = option("spot", Billing::UsedHours, 4.0);
    spot.overhead_fraction = 0.1;
    close(s.option_per_year_at(&spot, 0.5), 19_272.0, 1e-9);
    close(s.option_per_year_at(&option("q", Billing::FixedAnnual, 30_000.0), 0.9), 30_000.0, 0.0);
}

#[test]
fn break_even_subtracts_operating_cost_only() {
    let mut s = full_scenario();
    s.options = vec![option("q", Billing::FixedAnnual, 100_000.0), option("cheap", Billing::FixedAnnual, 50_000.0)];
    // Owned opex 50,384/yr. Against 100,000/yr: 120,000 / ((100,000 − 50,384) / 12) = 29.023.
    let be = s.break_even_month(&s.options[0]).expect("breaks even");
    close(be, 120_000.0 / (49_616.0 / 12.0), 1e-9);
    close(be, 29.023, 1e-3);
    // A cloud cheaper per month than running the build never breaks even.
    assert_eq!(s.break_even_month(&s.options[1]), None);
    let t = tco::evaluate(&s);
    assert!(t.break_even_within_horizon);
    assert_eq!(t.options[1].break_even_month, None);
}

#[test]
fn present_value_by_hand() {
    // 10 % a year is (1.1)^(1/12) − 1 = 0.797414 % a month; twelve month-end payments of 1
    // are worth (1 − 1.1^−1) / 0.00797414 = 11.40058 now.
    close(monthly_rate(0.10), 0.007_974_14, 1e-8);
    close(annuity_factor(monthly_rate(0.10), 12.0), 11.400_58, 1e-4);
    close(annuity_factor(0.0, 36.0), 36.0, 0.0);
    let mut s = full_scenario();
    s.horizon_years = 1.0;
    s.costs.discount_rate_percent = 10.0;
    s.options = vec![option("q", Billing::FixedAnnual, 12_000.0)];
    s.power = None;
    s.costs.colocation_per_kw_month = 0.0;
    let t = tco::evaluate(&s);
    close(t.present_value.options["q"], 1_000.0 * 11.400_58, 0.1);
    // Owned: capex now + opex monthly − book value after one year discounted by 1.1.
    // opex = 12,000 + 20,000 + 1,000 + 500 = 33,500; book value = 120,000 − 22,500 = 97,500.
    let expected = 120_000.0 + 33_500.0 / 12.0 * 11.400_58 - 97_500.0 / 1.1;
    close(t.present_value.owned, expected, 1.0);
    // At 0 % the present values are the totals.
    s.costs.discount_rate_percent = 0.0;
    let t = tco::evaluate(&s);
    close(t.present_value.owned, t.totals.owned, 1e-6);
    close(t.present_value.options["q"], t.totals.options["q"], 1e-6);
}

#[test]
fn break_even_utilization_and_cost_per_gpu_hour_by_hand() {
    let mut s = full_scenario();
    s.costs = Costs { depreciation_life_years: 1.0, ..Costs::default() };
    s.parts_capex = 100_000.0;
    s.custom_capex = 0.0;
    s.custom_opex_per_year = 0.0;
    s.electricity_per_kwh = 0.1;
    s.pue = 1.0;
    s.horizon_years = 1.0;
    s.power = Some(PowerInput { wall_idle_watts: 1_000.0, wall_max_watts: 3_000.0 });
    s.options = vec![option("od", Billing::UsedHours, 20.0)];
    // Owned(u) = 100,000 + (1 + 2u) kW × 8,760 × 0.1 = 100,876 + 1,752 u (book value 0 after the
    // one-year life); cloud(u) = 20 × 8,760 u = 175,200 u; equal at u = 100,876 / 173,448.
    let t = tco::evaluate(&s);
    close(t.break_even_utilization.expect("crosses"), 100_876.0 / 173_448.0, 1e-9);
    close(t.break_even_utilization.expect("crosses"), 0.5816, 1e-4);
    // At u = 0.5: owned = 100,876 + 876 = 101,752 over 8 GPUs × 8,760 h × 0.5 = 35,040 GPU-hours.
    close(t.totals.owned, 101_752.0, 1e-6);
    close(t.cost_per_gpu_hour.expect("used hours"), 101_752.0 / 35_040.0, 1e-9);
    // A reserved-style primary does not scale with use: no break-even utilization.
    s.options = vec![option("r", Billing::EveryHour, 20.0)];
    assert_eq!(tco::evaluate(&s).break_even_utilization, None);
    // No GPU-hours used: no cost per GPU-hour.
    s.utilization = 0.0;
    assert_eq!(tco::evaluate(&s).cost_per_gpu_hour, None);
}

#[test]
fn workload_costs_by_hand() {
    let mut s = full_scenario();
    s.horizon_years = 1.0;
    s.workload = Some(WorkloadInput { tokens_per_second: 1_000.0, run_tokens: Some(3.6e9) });
    let t = tco::evaluate(&s);
    let w = t.workload.expect("workload set");
    // Busy 8,760 × 0.5 = 4,380 h; 1,000 tok/s × 3,600 × 4,380 = 1.5768e10 tokens.
    close(w.owned_per_million_tokens.expect("tokens"), t.totals.owned / 15_768.0, 1e-9);
    // A 3.6e9-token run takes 3.6e9 / 1,000 / 3,600 = 1,000 h, i.e. 1,000 / 4,380 of the busy hours.
    close(w.run_hours.expect("run"), 1_000.0, 1e-9);
    close(w.owned_per_run.expect("run"), t.totals.owned * 1_000.0 / 4_380.0, 1e-6);
    let primary_total = t.totals.options["cloud"];
    close(w.primary_per_run.expect("primary"), primary_total * 1_000.0 / 4_380.0, 1e-6);
}

#[test]
fn yearly_lines_and_curves_add_up_on_a_partial_year() {
    let mut s = full_scenario();
    s.horizon_years = 2.5;
    let t = tco::evaluate(&s);
    assert_eq!(t.months, 30);
    assert_eq!(t.yearly.len(), 3);
    close(t.yearly[2].fraction_of_year, 0.5, 0.0);
    close(t.yearly[0].capex, 120_000.0, 1e-9);
    close(t.yearly[2].opex.total, t.owned_per_year.total * 0.5, 1e-9);
    let last = t.yearly.last().expect("a year");
    close(last.cumulative_cash, t.totals.owned_cash, 1e-6);
    close(last.residual_credit, s.book_value(2.5), 1e-9);
    close(t.yearly.iter().map(|y| y.depreciation).sum::<f64>(), 22_500.0 * 2.5, 1e-6);
    assert_eq!(t.monthly_cumulative.owned.len(), 31);
    close(t.monthly_cumulative.owned[0], 120_000.0, 1e-9);
    close(*t.monthly_cumulative.owned.last().expect("points"), t.totals.owned_cash, 1e-6);
    let cloud = &t.monthly_cumulative.options["cloud"];
    close(cloud[0], 0.0, 0.0);
    close(*cloud.last().expect("points"), t.totals.options["cloud"], 1e-6);
}

#[test]
fn sensitivity_sweep_and_tornado() {
    let s = full_scenario();
    let t = tco::evaluate(&s);
    let sweep = &t.sensitivity.utilization;
    assert_eq!(sweep.len(), 21);
    close(sweep[0].utilization, 0.0, 0.0);
    close(sweep[20].utilization, 1.0, 0.0);
    close(sweep[10].owned, t.totals.owned, 1e-6);
    close(sweep[0].options["cloud"], 0.0, 0.0);
    let tornado = &t.sensitivity.tornado;
    assert_eq!(tornado.output, TornadoOutput::OwningSavings);
    assert_eq!(tornado.bars.len(), 6);
    assert!(tornado.bars.windows(2).all(|w| w[0].swing >= w[1].swing), "sorted widest first");
    let bar = |p: TornadoParameter| tornado.bars.iter().find(|b| b.parameter == p).expect("bar");
    // Electricity ±20 %: energy 7,884/yr × 0.2 × 3 years = ±4,730.4 on the owned total, so the
    // saving from owning moves by 9,460.8 between the ends.
    close(bar(TornadoParameter::ElectricityPrice).swing, 2.0 * 7_884.0 * 0.2 * 3.0, 1e-6);
    // Cloud price ±20 %: 43,800 × 3 × 0.4 = 52,560.
    close(bar(TornadoParameter::CloudPrice).swing, 43_800.0 * 3.0 * 0.4, 1e-6);
    // PUE cannot fall below 1: at PUE 1.0 the low end stays 1.0.
    let mut one = s.clone();
    one.pue = 1.0;
    let t1 = tco::evaluate(&one);
    let pue = t1.sensitivity.tornado.bars.iter().find(|b| b.parameter == TornadoParameter::Pue).expect("bar");
    close(pue.low_value, 1.0, 0.0);
    close(pue.high_value, 1.2, 1e-12);
    // Utilization cannot exceed 100 %.
    let mut busy = s;
    busy.utilization = 0.9;
    let tb = tco::evaluate(&busy);
    let u = tb.sensitivity.tornado.bars.iter().find(|b| b.parameter == TornadoParameter::Utilization).expect("bar");
    close(u.high_value, 1.0, 0.0);
}

proptest! {
    /// Higher electricity price never lowers the owned total.
    #[test]
    fn electricity_price_never_lowers_owned_total(
        price in 0.0f64..2.0, extra in 0.0f64..2.0, u in 0.0f64..=1.0, idle in 0.0f64..5_000.0, span in 0.0f64..50_000.0,
    ) {
        let mut s = full_scenario();
        s.utilization = u;
        s.power = Some(PowerInput { wall_idle_watts: idle, wall_max_watts: idle + span });
        s.electricity_per_kwh = price;
        let low = s.owned_total_at(u);
        s.electricity_per_kwh = price + extra;
        prop_assert!(s.owned_total_at(u) >= low);
    }

    /// Higher utilization never lowers the on-demand (or spot) cost.
    #[test]
    fn utilization_never_lowers_on_demand_cost(u in 0.0f64..=1.0, du in 0.0f64..=1.0, price in 0.0f64..500.0, overhead in 0.0f64..2.0) {
        let s = full_scenario();
        let mut o = option("od", Billing::UsedHours, price);
        o.overhead_fraction = overhead;
        prop_assert!(s.option_total_at(&o, (u + du).min(1.0)) >= s.option_total_at(&o, u));
    }
}

// ---------------------------------------------------------------------------------------------
// The field guides' example (field guide 000, 成本效益分析): 800,000 CNY initial investment,
// 267,000 CNY per year "including power and maintenance", cloud 450,000 CNY per year on demand
// and 320,000 reserved, over 3 years.

fn guide_build(includes_depreciation: bool) -> Build {
    let mut b = Build::new("Guide example");
    b.site.currency = Currency("CNY".to_owned());
    b.site.usd_exchange_rate = 7.2;
    b.custom_lines.push(CustomLine {
        name: "Cluster (guide's figure)".to_owned(),
        amount: 800_000.0,
        quantity: 1,
        kind: CostKind::Capex,
    });
    b.costs.annual_owned_cost = Some(267_000.0);
    b.costs.annual_cost_includes_depreciation = includes_depreciation;
    b.costs.custom_offers = vec![
        CustomOffer {
            id: "guide-on-demand".to_owned(),
            name: "Cloud on demand (guide)".to_owned(),
            pricing: CustomPricing::AnnualQuote { per_year: 450_000.0 },
        },
        CustomOffer {
            id: "guide-reserved".to_owned(),
            name: "Cloud reserved (guide)".to_owned(),
            pricing: CustomPricing::AnnualQuote { per_year: 320_000.0 },
        },
    ];
    b
}

#[test]
fn guide_example_literal_reading() {
    let catalog = Catalog::embedded().expect("catalog");
    let report = analysis::analyze(&catalog, &guide_build(false));
    let t = &report.tco;
    assert_eq!(t.reading, Reading::EnteredCostIsOpex);
    assert!(t.reading_note.starts_with("literal reading"), "{}", t.reading_note);
    close(t.capex, 800_000.0, 1e-9);
    // Owning: 800,000 + 3 × 267,000 = 1,601,000 ("1.60M"); on demand 3 × 450,000 = 1,350,000.
    close(t.totals.owned, 1_601_000.0, 1e-6);
    close(t.totals.options["guide-on-demand:custom"], 1_350_000.0, 1e-6);
    close(t.totals.options["guide-reserved:custom"], 960_000.0, 1e-6);
    assert_eq!(t.primary_option.as_deref(), Some("guide-on-demand:custom"));
    // Break-even: 800,000 / ((450,000 − 267,000) / 12) = 52.46 months, beyond the horizon.
    close(t.break_even_month.expect("breaks even"), 800_000.0 / (183_000.0 / 12.0), 1e-9);
    close(t.break_even_month.expect("breaks even"), 52.5, 0.05);
    assert!(!t.break_even_within_horizon);
    assert!(t.options.iter().all(|o| !o.owning_cheaper), "renting wins under the literal reading");
    // The other reading flips the answer.
    let other = t.other_reading.as_ref().expect("other reading shown");
    assert_eq!(other.reading, Reading::EnteredCostIncludesDepreciation);
    close(other.owned_total, 801_000.0, 1e-6);
    assert_eq!(other.owning_cheaper, Some(true));
    // Energy is inside the entered figure, so unknown power is not a finding here.
    assert!(report.tco.notes.iter().all(|d| d.code != "tco-power-unknown"), "{:?}", report.tco.notes);
}

#[test]
fn guide_example_depreciation_reading_flips_the_answer() {
    let catalog = Catalog::embedded().expect("catalog");
    let t = analysis::analyze(&catalog, &guide_build(true)).tco;
    assert_eq!(t.reading, Reading::EnteredCostIncludesDepreciation);
    // 267,000 − 800,000 / 3 = 333.33 per year of operating cost; 800,000 + 3 × 333.33 = 801,000.
    close(t.owned_per_year.entered_opex, 267_000.0 - 800_000.0 / 3.0, 1e-6);
    close(t.totals.owned, 801_000.0, 1e-6);
    // Break-even 800,000 / ((450,000 − 333.33) / 12) = 21.35 months, inside the horizon.
    close(t.break_even_month.expect("breaks even"), 800_000.0 / ((450_000.0 - 1_000.0 / 3.0) / 12.0), 1e-9);
    close(t.break_even_month.expect("breaks even"), 21.35, 0.01);
    assert!(t.break_even_within_horizon);
    assert!(t.options.iter().all(|o| o.owning_cheaper), "owning beats both cloud quotes");
    let other = t.other_reading.expect("other reading shown");
    assert_eq!(other.reading, Reading::EnteredCostIsOpex);
    close(other.owned_total, 1_601_000.0, 1e-6);
    close(other.break_even_month.expect("breaks even"), 52.46, 0.01);
}

#[test]
fn entered_cost_below_depreciation_is_flagged() {
    let catalog = Catalog::embedded().expect("catalog");
    let mut b = guide_build(true);
    b.costs.annual_owned_cost = Some(100_000.0);
    let report = analysis::analyze(&catalog, &b);
    assert!(report.tco.notes.iter().any(|d| d.code == "tco-entered-cost-below-depreciation"));
    close(report.tco.owned_per_year.entered_opex, 0.0, 0.0);
}

// ---------------------------------------------------------------------------------------------
// Matching cloud offers to a build

fn h100_build(nodes: u32) -> Build {
    let mut b = Build::new("H100 nodes");
    b.nodes[0].count = nodes;
    b.add_part(Location::Node(0), &PartId::from("gpu/nvidia-h100-sxm5-80gb"), 8).expect("add");
    b
}

#[test]
fn matching_rents_whole_nodes_of_the_same_gpu() {
    let catalog = Catalog::embedded().expect("catalog");
    let mut b = h100_build(2);
    b.site.usd_exchange_rate = 2.0;
    let report = analysis::analyze(&catalog, &b);
    let t = &report.tco;
    assert_eq!(t.gpus, 16);
    assert_eq!(t.gpu_model, Some(PartId::from("gpu/nvidia-h100-sxm5-80gb")));
    // Only 8-GPU instances keep an 8-GPU node whole: RunPod's single-GPU pods do not match.
    assert!(t.options.iter().all(|o| o.input.gpus_rented == 16 && o.input.instances == 2), "{:?}", t.options);
    assert!(!t.options.iter().any(|o| o.input.offer.starts_with("runpod")));
    // p5.48xlarge: 55.04 USD/h × 2 instances × 2 (units of the build currency per USD).
    let p5 = t.options.iter().find(|o| o.input.id == "aws-p5-48xlarge:on_demand").expect("p5 matched");
    close(p5.input.price, 55.04 * 2.0 * 2.0, 1e-9);
    close(p5.per_year, 55.04 * 4.0 * 8_760.0 * 0.7, 1e-6);
    // GCP a3-highgpu-8g has on-demand, both reservations and spot.
    for term in ["on_demand", "reserved_1y", "reserved_3y", "spot"] {
        assert!(t.options.iter().any(|o| o.input.id == format!("gcp-a3-highgpu-8g:{term}")), "{term}");
    }
    // Primary: the cheapest on-demand per hour among the matches (Lambda 8x H100 at 31.92 USD/h).
    assert_eq!(t.primary_option.as_deref(), Some("lambda-8x-h100-sxm:on_demand"));
    let ids: Vec<&str> = t.options.iter().map(|o| o.input.id.as_str()).collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(ids, sorted, "options come in a stable order");
    assert!(report.tco.notes.iter().any(|d| d.code == "tco-spot-overhead-unset"));
    // TCO notes qualify the comparison; they stay out of the report's findings about the build.
    assert!(report.diagnostics.iter().all(|d| !d.code.starts_with("tco-")), "{:?}", report.diagnostics);
}

#[test]
fn single_gpu_nodes_match_single_gpu_pods() {
    let catalog = Catalog::embedded().expect("catalog");
    let mut b = Build::new("4090");
    b.add_part(Location::Node(0), &PartId::from("gpu/nvidia-geforce-rtx-4090"), 1).expect("add");
    let report = analysis::analyze(&catalog, &b);
    let t = &report.tco;
    // Every single-GPU 4090 pod matches; the primary is the cheapest per hour: the Chinese
    // marketplace's 1.24 CNY (0.172 USD at 7.2 CNY per USD) under RunPod's 0.34 USD.
    for id in ["runpod-rtx-4090:on_demand", "suanjiayun-rtx-4090:on_demand"] {
        assert!(t.options.iter().any(|o| o.input.id == id && o.input.instances == 1), "{id}");
    }
    assert_eq!(t.primary_option.as_deref(), Some("suanjiayun-rtx-4090:on_demand"));
    // The 4090 prices are unverified, and the finding says so.
    assert!(report.tco.notes.iter().any(|d| d.code == "tco-price-unverified"));
}

#[test]
fn chosen_offer_and_its_findings() {
    let catalog = Catalog::embedded().expect("catalog");
    let mut b = h100_build(1);
    b.costs.chosen_offer = Some("gcp-a3-highgpu-8g:reserved_3y".to_owned());
    let t = analysis::analyze(&catalog, &b).tco;
    assert_eq!(t.options.len(), 1);
    assert_eq!(t.primary_option.as_deref(), Some("gcp-a3-highgpu-8g:reserved_3y"));
    // A 3-year reservation bills every hour: 38.864381 × 8,760 per year.
    close(t.options[0].per_year, 38.864_381 * 8_760.0, 1e-6);
    // An offer for another GPU is allowed but flagged; an unknown one is a warning.
    b.costs.chosen_offer = Some("aws-p4d-24xlarge".to_owned());
    let report = analysis::analyze(&catalog, &b);
    assert!(report.tco.notes.iter().any(|d| d.code == "tco-offer-gpu-differs"));
    b.costs.chosen_offer = Some("no-such-offer".to_owned());
    let report = analysis::analyze(&catalog, &b);
    assert!(report.tco.notes.iter().any(|d| d.code == "tco-offer-unknown" && d.severity == Severity::Warning));
    assert!(report.tco.options.is_empty());
    assert_eq!(report.tco.sensitivity.tornado.output, TornadoOutput::OwnedTotal);
}

#[test]
fn mixed_and_unmatched_gpus_are_findings_not_errors() {
    let catalog = Catalog::embedded().expect("catalog");
    let mut b = h100_build(1);
    b.add_node(NodeGroup::new("Other")).expect("node");
    b.add_part(Location::Node(1), &PartId::from("gpu/nvidia-l4"), 2).expect("add");
    let report = analysis::analyze(&catalog, &b);
    assert!(report.tco.notes.iter().any(|d| d.code == "tco-mixed-gpus"));
    assert!(report.tco.options.is_empty());
    let mut l4 = Build::new("L4");
    l4.add_part(Location::Node(0), &PartId::from("gpu/nvidia-l4"), 2).expect("add");
    let report = analysis::analyze(&catalog, &l4);
    assert!(report.tco.notes.iter().any(|d| d.code == "tco-no-cloud-match"));
}

#[test]
fn custom_per_gpu_hour_offer_scales_with_gpus() {
    let catalog = Catalog::embedded().expect("catalog");
    let mut b = h100_build(1);
    b.costs.custom_offers.push(CustomOffer {
        id: "quote".to_owned(),
        name: "Quote".to_owned(),
        pricing: CustomPricing::PerGpuHour { price: 2.0, every_hour: true },
    });
    b.costs.chosen_offer = Some("quote".to_owned());
    let t = analysis::analyze(&catalog, &b).tco;
    // 8 GPUs × 2.0 per GPU-hour × 8,760 h, billed every hour.
    let q = t.options.iter().find(|o| o.input.id == "quote:custom").expect("custom option");
    close(q.per_year, 8.0 * 2.0 * 8_760.0, 1e-9);
    assert_eq!(t.primary_option.as_deref(), Some("quote:custom"));
}

// ---------------------------------------------------------------------------------------------
// Build files and the CLI

#[test]
fn cost_settings_round_trip_and_are_range_checked() {
    use rigplan::core::persist::{BuildFileError, build_to_string, parse_build_str};
    let mut b = guide_build(true);
    b.costs.tax_percent = 13.0;
    b.costs.colocation_per_kw_month = 900.0;
    b.costs.colocation_includes_power = true;
    b.costs.chosen_offer = Some("guide-reserved".to_owned());
    let text = build_to_string(&b).expect("serializes");
    assert_eq!(parse_build_str("b.ron", &text).expect("parses"), b);
    // An older file without `costs` still loads, with the default settings.
    let old = "(version: 1, build: (name: \"old\", nodes: [(name: \"n\", count: 1, parts: [])]))";
    assert_eq!(parse_build_str("old.ron", old).expect("parses").costs, Costs::default());
    b.costs.tax_percent = 150.0;
    b.costs.depreciation_life_years = 0.0;
    b.costs.custom_offers[1].id = "Guide Reserved".to_owned();
    let text = build_to_string(&b).expect("serializes");
    let Err(BuildFileError::Invalid { problems, .. }) = parse_build_str("b.ron", &text) else {
        panic!("expected the out-of-range settings to be refused")
    };
    for field in ["build.costs.tax_percent", "build.costs.depreciation_life_years", "build.costs.custom_offers[1].id"] {
        assert!(problems.iter().any(|p| p.starts_with(field)), "{field} not in {problems:?}");
    }
}

fn write_guide_file(dir: &std::path::Path) -> String {
    let path = dir.join("guide.ron");
    rigplan::core::persist::save_build(&path, &guide_build(false)).expect("save");
    path.display().to_string()
}

#[test]
fn cli_tco_json_has_the_documented_names() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write_guide_file(dir.path());
    let (code, out, err) = crate::cli::run(&["tco", &path, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["currency"], "CNY");
    assert_eq!(v["capex"], 800_000.0);
    assert_eq!(v["reading"], "entered_cost_is_opex");
    assert_eq!(v["yearly"].as_array().map(Vec::len), Some(3));
    assert_eq!(v["yearly"][0]["entered_opex"], 267_000.0);
    assert_eq!(v["monthly_cumulative"]["owned"].as_array().map(Vec::len), Some(37));
    assert_eq!(v["monthly_cumulative"]["guide-on-demand:custom"][36], 1_350_000.0);
    assert_eq!(v["totals"]["owned"], 1_601_000.0);
    assert!((v["break_even_month"].as_f64().expect("number") - 52.459).abs() < 1e-3);
    assert!(v["break_even_utilization"].is_null(), "a yearly quote does not scale with use");
    assert!(v["cost_per_gpu_hour"].is_null(), "the guide build has no GPUs");
    assert_eq!(v["other_reading"]["owned_total"], 801_000.0);
    assert!(v["sensitivity"]["utilization"].as_array().is_some_and(|a| a.len() == 21));
    assert!(v["notes"].is_array());
    // --years and --offer change the comparison; the reserved quote never breaks even within
    // 181 months, which JSON shows as a number beyond the horizon.
    let (code, out, _) = crate::cli::run(&["tco", &path, "--json", "--years", "5", "--offer", "guide-reserved"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["months"], 60);
    assert_eq!(v["primary_option"], "guide-reserved:custom");
    assert!((v["break_even_month"].as_f64().expect("number") - 800_000.0 / (53_000.0 / 12.0)).abs() < 1e-6);
}

#[test]
fn cli_tco_text_states_the_reading_and_bad_options_are_bad_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write_guide_file(dir.path());
    let (code, out, _) = crate::cli::run(&["tco", &path]);
    assert_eq!(code, 0);
    assert!(out.contains("Reading: literal reading"), "{out}");
    assert!(out.contains("month 52.5 (beyond the 36-month horizon)"), "{out}");
    assert!(out.contains("Other reading (entered cost includes depreciation): owned total 801,000 CNY"), "{out}");
    for args in [
        vec!["tco", path.as_str(), "--utilization", "1.5"],
        vec!["tco", path.as_str(), "--years", "0"],
        vec!["tco", path.as_str(), "--offer", "nope"],
        vec!["tco", path.as_str(), "--offer", "guide-reserved:weekly"],
        vec!["tco", path.as_str(), "--tokens-per-second", "-3"],
    ] {
        let (code, out, err) = crate::cli::run(&args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(!err.is_empty(), "{args:?}");
    }
    // The report gains a short TCO section.
    let (code, out, _) = crate::cli::run(&["report", &path]);
    assert_eq!(code, 0);
    assert!(out.contains("TCO over 3.00 years"), "{out}");
    assert!(out.contains("owned: 1,601,000 CNY"), "{out}");
    let (_, json, _) = crate::cli::run(&["report", &path, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(v["tco"]["totals"]["owned"], 1_601_000.0);
}

#[test]
fn independent_pcie_cards_rent_per_gpu_but_bridged_ones_need_whole_nodes() {
    let catalog = Catalog::embedded().expect("catalog");
    let mut b = Build::new("2x A100 PCIe");
    b.add_part(Location::Node(0), &PartId::from("gpu/nvidia-a100-pcie-80gb"), 2).expect("add");
    let t = analysis::analyze(&catalog, &b).tco;
    // Two independent cards: two single-GPU pods stand in for them (1.19 USD/h each).
    let pods = t.options.iter().find(|o| o.input.id == "runpod-community-a100-pcie:on_demand").expect("pods match");
    assert_eq!(pods.input.instances, 2);
    close(pods.input.price, 2.0 * 1.19 * b.site.usd_exchange_rate, 1e-9);
    assert_eq!(t.primary_option.as_deref(), Some("runpod-community-a100-pcie:on_demand"));
    // With an NVLink bridge the pair must stay in one instance: Azure NC48ads (2) or NC96ads (4).
    b.nodes[0].nvlink_bridge = true;
    let t = analysis::analyze(&catalog, &b).tco;
    let offers: std::collections::BTreeSet<&str> = t.options.iter().map(|o| o.input.offer.as_str()).collect();
    assert_eq!(offers.into_iter().collect::<Vec<_>>(), ["azure-nc48ads-a100-v4", "azure-nc96ads-a100-v4"]);
    let nc96 = t.options.iter().find(|o| o.input.offer == "azure-nc96ads-a100-v4").expect("nc96");
    assert_eq!((nc96.input.instances, nc96.input.gpus_rented), (1, 4));
}

#[test]
fn every_template_build_has_a_tco_section() {
    let catalog = Catalog::embedded().expect("catalog");
    for template in rigplan::core::templates::TEMPLATES {
        let build = template.load().expect("template loads");
        let report = analysis::analyze(&catalog, &build);
        let t = &report.tco;
        assert!(t.capex > 0.0, "{}: capex", template.slug);
        assert_eq!(t.monthly_cumulative.owned.len(), t.months as usize + 1, "{}", template.slug);
        close(*t.monthly_cumulative.owned.last().expect("points"), t.totals.owned_cash, 1e-6);
        let json = serde_json::to_value(&report).expect("serializes");
        assert!(json["tco"]["totals"]["owned"].is_number(), "{}", template.slug);
        // Every template with GPUs a cloud rents finds at least one offer to compare with.
        if template.slug != "edge-jetson-agx-orin" {
            assert!(t.primary_option.is_some(), "{}: no cloud option", template.slug);
        }
    }
}

#[test]
fn terms_serialize_as_their_option_id_suffix() {
    for term in [Term::OnDemand, Term::Reserved1y, Term::Reserved3y, Term::Spot, Term::Custom] {
        assert_eq!(serde_json::to_value(term).expect("serializes"), term.key());
    }
}

#[test]
fn energy_comes_from_the_power_analysis_wall_draw() {
    let catalog = Catalog::embedded().expect("catalog");
    let template = rigplan::core::templates::find("enterprise-8x-h100-hgx").expect("template");
    let build = template.load().expect("loads");
    let report = analysis::analyze(&catalog, &build);
    let (p, t) = (&report.power, &report.tco);
    assert!(p.wall_watts > p.wall_idle_watts && p.wall_idle_watts > 0.0);
    let used = t.power.as_ref().expect("power known");
    close(used.wall_idle_watts, p.wall_idle_watts, 0.0);
    close(used.wall_max_watts, p.wall_watts, 0.0);
    // Energy = (idle + u × (max − idle)) / 1000 × 8,760 h × PUE × price per kWh.
    let u = build.usage.utilization;
    let average = p.wall_idle_watts + u * (p.wall_watts - p.wall_idle_watts);
    close(used.average_wall_watts, average, 1e-9);
    close(t.owned_per_year.energy, average / 1_000.0 * 8_760.0 * build.site.pue * build.site.electricity_per_kwh, 1e-6);
    assert!(t.notes.iter().all(|d| d.code != "tco-power-unknown"), "{:?}", t.notes);
}
