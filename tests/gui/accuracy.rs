//! Help → Accuracy…: the window shows each class of estimates against the built-in reference
//! set in one line, with the number of measurements the set really has; the report is computed
//! when the window first opens, kept while it is closed, and speaks the UI language.

use crate::common::*;
use egui_kittest::kittest::Queryable;
use rigplan::core::i18n::Lang;
use rigplan::core::reference::{self, Class};

/// Measurements of a class in the built-in set, counted from the file itself.
fn count(class: Class) -> usize {
    reference::embedded().expect("the built-in set").iter().filter(|m| m.class == class).count()
}

#[test]
fn help_accuracy_shows_the_decode_line_with_its_count_and_every_measurement_on_demand() {
    let mut h = app_as_started(config());
    assert!(state(&h).accuracy.is_none(), "nothing is computed before the window is opened");
    assert!(h.query_by_label_contains("mean error").is_none());
    h.get_by_label("Help").click();
    h.run();
    h.get_by_label("Accuracy…").click();
    h.run();
    assert!(state(&h).view.accuracy_open);
    let decode = count(Class::Decode);
    assert!(decode >= 20, "{decode} decode measurements");
    let line = h.get_by_label_contains("Decode speed: mean error").value().expect("a text");
    assert!(line.contains(&format!("over {decode} measurements, worst ")), "{line}");
    for class in Class::ALL {
        let name = class.name(Lang::En);
        let n = count(class);
        let text = h.get_by_label_contains(&format!("{name}: mean error")).value().expect("a text");
        assert!(text.contains(&format!("over {n} measurements")), "{text}: {n}");
    }
    assert!(h.query_by_label("Every class is within its threshold.").is_some());

    // The table of measurements is collapsed until asked for.
    let total = reference::embedded().expect("the built-in set").len();
    assert!(h.query_by_label("llamacpp-llama2-7b-f16-4090").is_none());
    h.get_by_label(&format!("Every measurement ({total})")).click();
    h.run();
    assert!(h.query_by_label("llamacpp-llama2-7b-f16-4090").is_some());

    // Closing keeps the report; opening again shows the same one.
    h.get_by_label("Close window").click();
    h.run();
    assert!(!state(&h).view.accuracy_open);
    assert!(h.query_by_label_contains("Decode speed: mean error").is_none());
    let kept = state(&h).accuracy.clone().expect("kept");
    h.get_by_label("Help").click();
    h.run();
    h.get_by_label("Accuracy…").click();
    h.run();
    assert_eq!(state(&h).accuracy.as_ref(), Some(&kept));
    assert!(h.query_by_label_contains("Decode speed: mean error").is_some());
}

#[test]
fn the_accuracy_window_in_chinese() {
    let mut c = config();
    c.lang = Lang::ZhCn;
    let mut h = app_as_started(c);
    h.get_by_label("帮助").click();
    h.run();
    h.get_by_label("准确度…").click();
    h.run();
    let decode = count(Class::Decode);
    let line = h.get_by_label_contains("解码速度：平均误差").value().expect("a text");
    assert!(line.contains(&format!("（{decode} 个实测值）")), "{line}");
    assert!(h.query_by_label("所有类别均在阈值之内。").is_some());
}

/// The window shows the shipped report, the one every figure's typical error quotes; a user
/// catalog that moves an estimate of the set (here the H100 SXM5 at half its memory bandwidth)
/// adds the classes it moves under their own heading, never a second number unlabelled.
#[test]
fn a_user_catalog_that_moves_an_estimate_is_a_second_labelled_report() {
    let shipped = reference::shipped_accuracy().expect("the shipped report");
    let decode = shipped.class(Class::Decode).expect("decode");
    let shipped_line = decode.sentence(Lang::En);
    let mut c = config();
    let gpu = c.catalog.gpus.iter_mut().find(|g| g.id.as_str() == "gpu/nvidia-h100-sxm5-80gb").expect("the H100 SXM5");
    gpu.memory_bandwidth_gbs /= 2.0;
    let mut h = app_as_started(c);
    h.get_by_label("Help").click();
    h.run();
    h.get_by_label("Accuracy…").click();
    h.run();
    assert_eq!(state(&h).accuracy.as_ref().map(|v| &v.accuracy), Some(shipped), "the shipped report");
    assert!(h.query_by_label(&shipped_line).is_some(), "its decode line: {shipped_line}");
    assert!(h.query_by_label("With your catalog").is_some());
    let yours = h.get_by_label_contains("Your catalog: Decode speed: mean error").value().expect("a text");
    assert_ne!(yours, format!("Your catalog: {shipped_line}"));
    // Unlabelled, the decode class has one line: the shipped one.
    let plain = h
        .query_all_by_label_contains("Decode speed: mean error")
        .filter(|n| n.value().is_some_and(|v| !v.starts_with("Your catalog")))
        .count();
    assert_eq!(plain, 1);
}
