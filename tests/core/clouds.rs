//! The shipped cloud-offer catalog: loads cleanly, uses the agreed GPU ids, and its derived
//! prices match the per-GPU figures its sources quote.

use rigplan::core::catalog::{Catalog, PriceCheck};

/// GPU ids agreed in the team context (CONTEXT.md), plus the A100 SXM4 40 GB of the clouds'
/// p4d / ND96asr_v4 / a2-highgpu instances, which the parts catalog also carries, and the
/// cards the Chinese clouds rent (China-market parts, the RTX 5090, the A10 of Tencent's GPU
/// functions).
const AGREED_GPU_IDS: [&str; 18] = [
    "gpu/nvidia-geforce-rtx-4090",
    "gpu/nvidia-geforce-rtx-4090-d",
    "gpu/nvidia-geforce-rtx-5090",
    "gpu/nvidia-a10",
    "gpu/nvidia-l20",
    "gpu/nvidia-a800-pcie-80gb",
    "gpu/nvidia-h800-pcie-80gb",
    "gpu/nvidia-h20-96gb",
    "gpu/nvidia-a100-pcie-40gb",
    "gpu/nvidia-a100-pcie-80gb",
    "gpu/nvidia-a100-sxm4-40gb",
    "gpu/nvidia-a100-sxm4-80gb",
    "gpu/nvidia-h100-pcie-80gb",
    "gpu/nvidia-h100-sxm5-80gb",
    "gpu/nvidia-h100-nvl-94gb",
    "gpu/nvidia-h200-sxm-141gb",
    "gpu/nvidia-h200-nvl-141gb",
    "gpu/nvidia-b200-sxm-180gb",
];

#[test]
fn shipped_offers_load_without_problems() {
    let (catalog, problems) = Catalog::embedded_with_problems();
    let cloud_problems: Vec<String> =
        problems.iter().filter(|p| p.file.ends_with("clouds.ron")).map(ToString::to_string).collect();
    assert!(cloud_problems.is_empty(), "{cloud_problems:#?}");
    assert!(catalog.clouds.len() >= 20, "{} offers", catalog.clouds.len());
    for o in &catalog.clouds {
        assert!(AGREED_GPU_IDS.contains(&o.gpu.as_str()), "{}: {}", o.id, o.gpu);
        assert!(catalog.gpu(&o.gpu).is_some(), "{}: {} not in the parts catalog", o.id, o.gpu);
        if o.price_check == PriceCheck::Unverified {
            assert!(o.source.contains("Unverified"), "{}: an unverified price must say why", o.id);
        }
    }
}

#[test]
fn required_providers_and_gpus_are_covered() {
    let catalog = Catalog::embedded().expect("catalog");
    for (provider, instance) in [
        ("AWS", "p4d.24xlarge"),
        ("AWS", "p5.48xlarge"),
        ("Azure", "Standard_ND96asr_v4 (ND A100 v4)"),
        ("Azure", "Standard_ND96isr_H100_v5 (ND H100 v5)"),
        ("Google Cloud", "a2-highgpu-8g"),
        ("Google Cloud", "a2-ultragpu-8g"),
        ("Google Cloud", "a3-highgpu-8g"),
    ] {
        assert!(
            catalog.clouds.iter().any(|o| o.provider == provider && o.instance == instance),
            "{provider} {instance}"
        );
    }
    for gpu in ["a100-sxm4-80gb", "h100-sxm5-80gb", "h200-sxm-141gb", "geforce-rtx-4090"] {
        let gpu_clouds: Vec<&str> = catalog
            .clouds
            .iter()
            .filter(|o| {
                o.gpu.as_str().ends_with(gpu) && ["Lambda", "RunPod", "CoreWeave"].contains(&o.provider.as_str())
            })
            .map(|o| o.provider.as_str())
            .collect();
        assert!(!gpu_clouds.is_empty(), "no GPU cloud offers {gpu}");
    }
}

#[test]
fn per_gpu_quotes_were_multiplied_correctly() {
    let catalog = Catalog::embedded().expect("catalog");
    let price = |id: &str| catalog.cloud(id).map(|o| (o.on_demand_per_hour, o.gpus_per_instance)).expect(id);
    // Sources quote per GPU-hour: Azure ND H100 v5 12.29, ND96asr 3.3996, Lambda 3.99 / 2.79 /
    // 1.99, GCP a3-ultragpu 10.4365; the catalog stores instance-hours.
    for (id, per_gpu) in [
        ("azure-nd96isr-h100-v5", 12.29),
        ("azure-nd96asr-a100-v4", 3.3996),
        ("lambda-8x-h100-sxm", 3.99),
        ("lambda-8x-a100-sxm-80gb", 2.79),
        ("lambda-8x-a100-sxm-40gb", 1.99),
        ("gcp-a3-ultragpu-8g", 10.4365),
    ] {
        let (per_instance, gpus) = price(id);
        assert!((per_instance - per_gpu * f64::from(gpus)).abs() < 1e-9, "{id}");
    }
    // GCP committed-use prices are the file's monthly figures over 730 h.
    let a2 = catalog.cloud("gcp-a2-highgpu-8g").expect("a2");
    assert!((a2.reserved_1y_per_hour.expect("1y") - 13_514.969_113_6 / 730.0).abs() < 1e-5);
    assert!((a2.reserved_3y_per_hour.expect("3y") - 7_508.536_623_84 / 730.0).abs() < 1e-5);
    // a3-highgpu-8g is twice the file's a3-highgpu-4g row.
    let a3 = catalog.cloud("gcp-a3-highgpu-8g").expect("a3");
    assert!((a3.on_demand_per_hour - 2.0 * 44.244_999_951_287_7).abs() < 1e-4);
    assert!((a3.reserved_1y_per_hour.expect("1y") - 2.0 * 22_405.040_332_32 / 730.0).abs() < 1e-5);
    assert!((a3.spot_per_hour.expect("spot") - 2.0 * 17.796_504_986_301_4).abs() < 1e-5);
}

#[test]
fn a_user_clouds_file_overrides_by_id_and_reports_positions() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = r#"[
    (
        id: "aws-p5-48xlarge",
        provider: "AWS",
        instance: "p5.48xlarge",
        gpu: "gpu/nvidia-h100-sxm5-80gb",
        gpus_per_instance: 8,
        region: "us-east-1",
        on_demand_per_hour: 50.0,
        price_date: "2026-12",
        price_check: ProviderPage,
        source: "negotiated",
    ),
    (
        id: "bad-offer",
        provider: "X",
        instance: "x",
        gpu: "gpu/not-a-gpu",
        gpus_per_instance: 8,
        region: "r",
        on_demand_per_hour: 10.0,
        price_date: "2026-12",
        price_check: ThirdParty,
        source: "test",
    ),
]"#;
    std::fs::write(dir.path().join("clouds.ron"), text).expect("write");
    let (catalog, problems) = Catalog::load_dir_overlay(dir.path());
    assert!((catalog.cloud("aws-p5-48xlarge").expect("p5").on_demand_per_hour - 50.0).abs() < 1e-12);
    let label = dir.path().join("clouds.ron").display().to_string();
    let bad = problems.iter().find(|p| p.message.contains("gpu/not-a-gpu")).expect("reported");
    assert!(bad.is_error());
    assert_eq!((bad.file.as_str(), bad.line, bad.col), (label.as_str(), Some(15), Some(13)));
}

/// The offers the app's "Cloud offer" choice lists: every term a matching catalog offer
/// prices, for the build's GPU model in instances that hold its linked nodes; nothing for a
/// GPU no cloud rents.
#[test]
fn offer_choices_list_each_priced_term_of_the_matching_offers() {
    use rigplan::core::analysis::tco::{Term, offer_choices};
    use rigplan::core::resolve::Resolved;
    let catalog = Catalog::embedded().unwrap();
    let load = |slug: &str| rigplan::core::templates::find(slug).unwrap().load().unwrap();
    let hgx = load("enterprise-8x-h100-hgx");
    let choices = offer_choices(&Resolved::new(&catalog, &hgx));
    let gcp: Vec<Term> = choices.iter().filter(|c| c.offer == "gcp-a3-highgpu-8g").map(|c| c.term).collect();
    // catalog/clouds.ron prices a3-highgpu-8g on demand, reserved 1 and 3 years, and spot.
    assert_eq!(gcp, vec![Term::OnDemand, Term::Reserved1y, Term::Reserved3y, Term::Spot]);
    assert!(choices.iter().any(|c| c.id == "gcp-a3-highgpu-8g:reserved_1y"));
    for c in &choices {
        let offer = catalog.cloud(&c.offer).unwrap();
        assert_eq!(offer.gpu.as_str(), "gpu/nvidia-h100-sxm5-80gb", "{}", c.id);
        // Eight linked SXM modules need an instance that holds all eight.
        assert!(offer.gpus_per_instance >= 8, "{}", c.id);
    }
    let jetson = load("edge-jetson-agx-orin");
    assert!(offer_choices(&Resolved::new(&catalog, &jetson)).is_empty());
}
