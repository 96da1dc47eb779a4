//! Every template build loads, validates, round-trips and is complete enough to analyze.

use rigplan::core::catalog::{Catalog, PartKind};
use rigplan::core::persist::{build_to_string, load_build, parse_build_str, save_build};
use rigplan::core::resolve::Resolved;
use rigplan::core::templates::{DEFAULT_TEMPLATE, TEMPLATES, find};

#[test]
fn every_template_file_is_embedded() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog/builds");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("catalog/builds exists")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| std::path::Path::new(n).extension().is_some_and(|e| e.eq_ignore_ascii_case("ron")))
        .collect();
    on_disk.sort();
    let mut embedded: Vec<String> = TEMPLATES.iter().map(|t| format!("{}.ron", t.slug)).collect();
    embedded.sort();
    assert_eq!(on_disk, embedded);
    assert!(find(DEFAULT_TEMPLATE).is_some());
}

#[test]
fn templates_load_and_round_trip() {
    let dir = tempfile::tempdir().expect("temp dir");
    for t in &TEMPLATES {
        let build = t.load().unwrap_or_else(|e| panic!("{}: {e}", t.slug));
        // Text round trip.
        let text = build_to_string(&build).expect("serializes");
        assert_eq!(parse_build_str("again", &text).expect("parses again"), build, "{}", t.slug);
        // File round trip through the atomic save.
        let path = dir.path().join(format!("{}.ron", t.slug));
        save_build(&path, &build).expect("saves");
        assert_eq!(load_build(&path).expect("loads"), build, "{}", t.slug);
    }
}

#[test]
fn templates_use_only_catalog_parts_and_are_complete() {
    let catalog = Catalog::embedded().expect("catalog");
    for t in &TEMPLATES {
        let build = t.load().expect("loads");
        let resolved = Resolved::new(&catalog, &build);
        assert!(resolved.unknown.is_empty(), "{}: unknown parts {:?}", t.slug, resolved.unknown);
        for node in &resolved.nodes {
            let p = &node.parts;
            assert!(p.gpu_count() > 0, "{}: every template node has GPUs", t.slug);
            if p.systems.is_empty() {
                assert!(p.cpu_count() > 0, "{}: CPU", t.slug);
                assert!(p.mainboard().is_some(), "{}: board", t.slug);
                assert!(p.dimm_count() > 0, "{}: memory", t.slug);
                assert!(!p.storage.is_empty(), "{}: storage", t.slug);
                assert!(p.psu_count() > 0, "{}: PSU (own or fitted in the chassis)", t.slug);
                assert!(!p.coolers.is_empty(), "{}: CPU cooler", t.slug);
                assert!(p.chassis().is_some(), "{}: chassis", t.slug);
            }
            // The guides advise system RAM of at least 1.5x total VRAM (unified memory aside).
            let unified = p.systems.iter().any(|s| s.part.unified_memory);
            if !unified {
                assert!(
                    p.system_memory_gib() >= 1.5 * p.gpu_memory_gib(),
                    "{}: {} GiB RAM for {} GiB VRAM",
                    t.slug,
                    p.system_memory_gib(),
                    p.gpu_memory_gib()
                );
            }
        }
        let kinds: Vec<PartKind> = build.part_ids().filter_map(|id| resolved.kind_of(id)).collect();
        assert!(kinds.contains(&PartKind::Gpu) || kinds.contains(&PartKind::System), "{}", t.slug);
    }
}

#[test]
fn guide_figures_in_templates() {
    let catalog = Catalog::embedded().expect("catalog");
    let load = |slug: &str| find(slug).expect("template").load().expect("loads");
    // 3.1: one RTX 4090, 64 GB DDR5-5200, 2 TB NVMe.
    let entry = load("entry-workstation");
    let r = Resolved::new(&catalog, &entry);
    assert_eq!(r.total_gpus(), 1);
    assert!((r.nodes[0].parts.system_memory_gib() - 64.0).abs() < 1e-9);
    // 3.2: 8x A100 80GB with NVLink, 1 TB DDR4 ECC, >= 100 TB SSD + 500 TB HDD.
    let hgx = load("enterprise-8x-a100-hgx");
    let r = Resolved::new(&catalog, &hgx);
    assert_eq!(r.total_gpus(), 8);
    assert!((r.nodes[0].parts.system_memory_gib() - 1024.0).abs() < 1e-9);
    let ssd_tb: f64 =
        r.nodes[0].parts.storage.iter().map(|s| s.part.capacity_gb * f64::from(s.quantity)).sum::<f64>() / 1000.0;
    assert!(ssd_tb >= 100.0, "{ssd_tb} TB SSD");
    let hdd_tb: f64 =
        r.cluster.storage.iter().map(|s| s.part.capacity_gb * f64::from(s.quantity)).sum::<f64>() / 1000.0;
    assert!((hdd_tb - 500.0).abs() < 1e-6, "{hdd_tb} TB HDD");
    // 3.3: Jetson AGX Orin 64GB.
    let edge = load("edge-jetson-agx-orin");
    assert_eq!(Resolved::new(&catalog, &edge).total_gpus(), 1);
}

/// Field guide 000 §1.2: "内存容量应至少为GPU显存的1.5倍，例如搭配4张A100 80GB时，建议配置512GB DDR4
/// ECC内存" — with four A100 80GB (320 GiB of VRAM), 1.5× is 480 GiB, and the purchasable size
/// rigplan recommends is the guide's 512 GiB.
#[test]
fn four_a100s_want_the_guides_512_gib() {
    use rigplan::core::analysis::{self, Severity};
    let catalog = Catalog::embedded().expect("catalog");
    let mut build = find("professional-2x-a100").expect("template").load().expect("loads");
    let node = &mut build.nodes[0];
    for line in &mut node.parts {
        match line.part.as_str() {
            "gpu/nvidia-a100-pcie-80gb" => line.quantity = 4,
            // 8 × 32 GB = 256 GB: below 1.5 × 320 GiB.
            "memory/samsung-ddr4-3200-rdimm-32gb" => line.quantity = 8,
            _ => {}
        }
    }
    let report = analysis::analyze(&catalog, &build);
    let d = report.diagnostics.iter().find(|d| d.code == "system-memory-below-vram").expect("the 1.5x advice");
    assert_eq!(d.severity, Severity::Info);
    assert!(
        d.message.contains("256 GiB") && d.message.contains("320 GiB") && d.message.contains("480 GiB"),
        "{}",
        d.message
    );
    assert_eq!(d.fix.as_deref(), Some("Fit 512 GiB of system memory"));
    // With the template's 16 DIMMs (512 GiB) the advice is met.
    let mut build = find("professional-2x-a100").expect("template").load().expect("loads");
    for line in &mut build.nodes[0].parts {
        if line.part.as_str() == "gpu/nvidia-a100-pcie-80gb" {
            line.quantity = 4;
        }
    }
    let report = analysis::analyze(&catalog, &build);
    assert!(!report.diagnostics.iter().any(|d| d.code == "system-memory-below-vram"));
}
