//! Guards the shipped catalog: it loads with no errors, has the parts the issues require, and
//! a few datasheet figures that the analyses lean on are what the datasheets say.

use rigplan::core::catalog::{Catalog, GpuFormFactor, Part, PartId, PartKind};

fn catalog() -> Catalog {
    Catalog::embedded().expect("the shipped catalog loads without errors")
}

#[test]
fn shipped_catalog_has_no_errors() {
    let sources: Vec<_> = rigplan::core::catalog::EMBEDDED_FILES
        .iter()
        .map(|(k, t)| (*k, format!("catalog/{}", k.file_name()), (*t).to_owned()))
        .collect();
    let (cat, problems) = Catalog::from_sources(&sources);
    let errors: Vec<String> = problems.iter().filter(|p| p.is_error()).map(ToString::to_string).collect();
    assert!(errors.is_empty(), "catalog errors:\n{}", errors.join("\n"));
    assert!(cat.len() > 100, "expected the full catalog, got {} parts", cat.len());
}

#[test]
fn required_parts_exist() {
    let cat = catalog();
    let required = [
        "gpu/nvidia-geforce-rtx-3090",
        "gpu/nvidia-geforce-rtx-3090-ti",
        "gpu/nvidia-geforce-rtx-4070-ti-super",
        "gpu/nvidia-geforce-rtx-4080-super",
        "gpu/nvidia-geforce-rtx-4090",
        "gpu/nvidia-geforce-rtx-5090",
        "gpu/nvidia-rtx-a6000",
        "gpu/nvidia-rtx-6000-ada",
        "gpu/nvidia-rtx-pro-6000-blackwell",
        "gpu/nvidia-l4",
        "gpu/nvidia-l40s",
        "gpu/nvidia-v100-sxm2-32gb",
        "gpu/nvidia-a100-pcie-40gb",
        "gpu/nvidia-a100-pcie-80gb",
        "gpu/nvidia-a100-sxm4-80gb",
        "gpu/nvidia-h100-pcie-80gb",
        "gpu/nvidia-h100-sxm5-80gb",
        "gpu/nvidia-h100-nvl-94gb",
        "gpu/nvidia-h200-sxm-141gb",
        "gpu/nvidia-h200-nvl-141gb",
        "gpu/nvidia-b200-sxm-180gb",
        "gpu/amd-instinct-mi250x",
        "gpu/amd-instinct-mi300x",
        "gpu/amd-radeon-rx-7900-xtx",
        "cpu/amd-ryzen-9-7950x",
        "cpu/amd-ryzen-9-9950x",
        "cpu/intel-core-i7-13700k",
        "cpu/intel-core-i9-13900k",
        "cpu/intel-core-i9-14900k",
        "cpu/amd-threadripper-pro-7985wx",
        "cpu/amd-threadripper-pro-7995wx",
        "cpu/intel-xeon-w9-3495x",
        "cpu/amd-epyc-7763",
        "cpu/amd-epyc-9654",
        "cpu/amd-epyc-9754",
        "cpu/intel-xeon-platinum-8380",
        "cpu/intel-xeon-platinum-8480plus",
        "motherboard/nvidia-hgx-a100-8gpu",
        "motherboard/nvidia-hgx-h100-8gpu",
        "motherboard/nvidia-hgx-h200-8gpu",
        "system/nvidia-dgx-a100-640gb",
        "system/nvidia-dgx-h100",
        "system/nvidia-jetson-agx-orin-64gb-devkit",
        "nic/nvidia-connectx-6-hdr-mcx653105a-hdat",
        "nic/nvidia-connectx-7-ndr-mcx75310aas-neat",
        "switch/nvidia-quantum-qm8700",
        "switch/nvidia-quantum-2-qm9700",
    ];
    let missing: Vec<&str> = required.iter().copied().filter(|id| cat.get(&PartId::from(*id)).is_none()).collect();
    assert!(missing.is_empty(), "missing catalog parts: {missing:?}");
    assert!(cat.gpus.len() >= 25, "at least 25 GPUs, got {}", cat.gpus.len());
    assert!(cat.cpus.len() >= 12, "at least 12 CPUs, got {}", cat.cpus.len());
    for kind in PartKind::ALL {
        assert!(cat.parts_of(kind).count() >= 3, "at least three parts of kind {kind}");
    }
}

#[test]
fn every_entry_names_its_source_and_price_date() {
    let cat = catalog();
    for part in cat.all_parts() {
        let m = part.meta();
        assert!(m.source.len() > 20, "{}: a source says where the numbers came from", m.id);
        if m.price_usd.is_some() {
            assert!(m.price_date.is_some(), "{}: a price needs its date", m.id);
        }
    }
}

/// Datasheet figures the analyses depend on. Dense, not sparse (domain.md §1).
#[test]
fn key_datasheet_figures() {
    let cat = catalog();
    let gpu = |id: &str| cat.gpu(&PartId::from(id)).unwrap_or_else(|| panic!("{id} in catalog")).clone();
    // NVIDIA Ada whitepaper v2.1, Appendix A: RTX 4090 165.2 dense FP16 TFLOPS with FP32
    // accumulate (330.3 with FP16 accumulate), 1008 GB/s, 24 GB, 450 W.
    let g = gpu("gpu/nvidia-geforce-rtx-4090");
    assert!((g.fp16_tensor_tflops - 165.2).abs() < 0.5);
    assert!((g.memory_bandwidth_gbs - 1008.0).abs() < 1.0);
    assert!((g.tdp_watts - 450.0).abs() < 1.0);
    // NVIDIA H100 datasheet: SXM5 989 dense BF16 TFLOPS (1979 with sparsity), 3.35 TB/s, 700 W.
    let h = gpu("gpu/nvidia-h100-sxm5-80gb");
    assert!((h.dense_16bit_tflops() - 989.0).abs() < 10.0, "{}", h.dense_16bit_tflops());
    assert!((h.memory_bandwidth_gbs - 3350.0).abs() < 50.0);
    assert_eq!(h.form_factor, GpuFormFactor::Sxm5);
    assert!((h.tdp_watts - 700.0).abs() < 1.0);
    // NVIDIA A100 datasheet: 312 dense BF16 TFLOPS; 80 GB SXM4 at 2039 GB/s, 400 W.
    let a = gpu("gpu/nvidia-a100-sxm4-80gb");
    assert!((a.dense_16bit_tflops() - 312.0).abs() < 1.0);
    assert!((a.memory_bandwidth_gbs - 2039.0).abs() < 5.0);
    // MI250X and MI300X are OAM modules only (domain.md §1).
    assert_eq!(gpu("gpu/amd-instinct-mi300x").form_factor, GpuFormFactor::Oam);
    assert_eq!(gpu("gpu/amd-instinct-mi250x").form_factor, GpuFormFactor::Oam);
    // V100 has no BF16.
    assert!(gpu("gpu/nvidia-v100-sxm2-32gb").bf16_tensor_tflops.is_none());
}

#[test]
fn systems_reference_catalog_gpus() {
    let cat = catalog();
    let Some(Part::System(dgx)) = cat.get(&PartId::from("system/nvidia-dgx-h100")) else { panic!("DGX H100") };
    let gpus: u32 = dgx.gpus.iter().map(|g| u32::from(g.count)).sum();
    assert_eq!(gpus, 8);
    assert!(dgx.gpus.iter().all(|g| cat.gpu(&g.gpu).is_some()));
}

/// `Catalog::embedded` reads the catalog `build.rs` compiled to JSON (issue 19: a process's
/// start), and must give exactly what parsing the RON files gives: every entry field for
/// field, in the same order, with the same positions, models and cloud offers alike.
#[test]
fn the_compiled_catalog_equals_the_parsed_one() {
    use std::collections::BTreeMap;
    let compiled = catalog();
    let parsed = Catalog::embedded_from_ron().expect("the RON catalog loads");
    for kind in PartKind::ALL {
        let a: Vec<String> = compiled.parts_of(kind).map(|p| format!("{p:?}")).collect();
        let b: Vec<String> = parsed.parts_of(kind).map(|p| format!("{p:?}")).collect();
        assert!(!a.is_empty(), "{kind:?}");
        assert_eq!(a, b, "{kind:?}");
    }
    let origins = |c: &Catalog| c.origins.iter().map(|(k, v)| (k.clone(), v.to_string())).collect::<BTreeMap<_, _>>();
    assert_eq!(origins(&compiled), origins(&parsed));
    assert_eq!(compiled.origins.len(), compiled.len());
    let models = |c: &Catalog| {
        c.models.iter().map(|m| (format!("{m:?}"), c.models.origin(&m.id).map(ToString::to_string))).collect::<Vec<_>>()
    };
    assert_eq!(models(&compiled), models(&parsed));
    assert!(
        models(&compiled)
            .iter()
            .all(|(_, origin)| origin.as_ref().is_some_and(|o| o.starts_with("catalog/models.ron:")))
    );
    assert_eq!(format!("{:?}", compiled.clouds), format!("{:?}", parsed.clouds));
    let clouds =
        |c: &Catalog| c.cloud_origins.iter().map(|(k, v)| (k.clone(), v.to_string())).collect::<BTreeMap<_, _>>();
    assert_eq!(clouds(&compiled), clouds(&parsed));
    // Every part is found by id through the index.
    for kind in PartKind::ALL {
        for p in compiled.parts_of(kind) {
            assert_eq!(compiled.get(p.id()).map(Part::id), Some(p.id()));
        }
    }
}

/// The first GPU entry of the shipped gpu.ron, renamed: `(id, name)`.
fn one_gpu_file(id: &str, name: &str) -> String {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/catalog/gpu.ron")).unwrap();
    let start = text.find("    (\n        id:").unwrap();
    let end = start + text[start..].find("\n    ),").unwrap() + "\n    ),".len();
    let entry = &text[start..end];
    let (first_id, first_name) = (entry.split('"').nth(1).unwrap(), entry.split('"').nth(3).unwrap());
    format!("[\n{}\n]\n", entry.replacen(first_id, id, 1).replacen(first_name, name, 1))
}

/// Several user folders overlay in order: a later folder overrides an earlier one by id, and
/// a path that is not a folder loads nothing.
#[test]
fn catalog_folders_overlay_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    for (d, name) in [(&a, "Card from A"), (&b, "Card from B")] {
        std::fs::create_dir_all(d).unwrap();
        std::fs::write(d.join("gpu.ron"), one_gpu_file("gpu/overlaid-card", name)).unwrap();
    }
    std::fs::write(a.join("cpu.ron"), "[]").unwrap();
    let id = PartId("gpu/overlaid-card".into());
    let name =
        |dirs: &[std::path::PathBuf]| Catalog::load_with_overlays(dirs).unwrap().get(&id).unwrap().name().to_owned();
    assert_eq!(name(&[a.clone(), b.clone()]), "Card from B");
    assert_eq!(name(&[b.clone(), a.clone()]), "Card from A");
    let embedded = Catalog::embedded().unwrap().len();
    assert_eq!(Catalog::load_with_overlays(std::slice::from_ref(&a)).unwrap().len(), embedded + 1);
    let (none, problems) = Catalog::load_dirs_overlay(&[a, dir.path().join("missing")]);
    assert_eq!(none.len(), 0);
    assert!(problems.iter().any(rigplan::core::catalog::CatalogProblem::is_error), "{problems:?}");
}
