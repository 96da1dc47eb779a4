//! The Advisor view: the entry tier answers at once and follows every input live; a build is
//! found on the plot by hovering its point and selected by clicking it; "Open as build" makes
//! a new unsaved build with no error finding that Undo takes back; ticked builds go to the
//! compare view and are not kept with the preferences.

use crate::common::*;
use egui::{Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigplan::core::advisor::{self, Candidate, Preset};
use rigplan::core::analysis::Severity;
use rigplan::core::templates;
use rigplan::gui::App;
use rigplan::gui::advisor::SpeedAxis;
use rigplan::gui::compare::CompareSource;
use rigplan::gui::panels::advisor::FRONT_PLOT_ID;
use rigplan::gui::state::MainView;
use rigplan::gui::text::EN;

fn open_advisor(h: &mut Harness<'static, App>) {
    h.get_by_label("View").click();
    h.run();
    h.get_by_label(EN.advisor.menu_item).click();
    h.run();
    assert_eq!(state(h).prefs.main_view, MainView::Advisor);
}

fn front(h: &Harness<'static, App>) -> Vec<Candidate> {
    let advised = state(h).advised.as_ref().expect("the advice is computed while the view shows");
    assert_eq!(advised.revision, state(h).advisor.revision(), "the advice is for the requirement shown");
    advised.advice().expect("a valid requirement").front.clone()
}

/// Presses and releases the primary button at `pos` with the pointer staying there.
fn click_at(h: &mut Harness<'static, App>, pos: Pos2) {
    h.hover_at(pos);
    h.run();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.run();
    }
}

#[test]
fn the_entry_tier_answers_at_once_and_follows_the_inputs() {
    let mut h = app_as_started(config());
    open_advisor(&mut h);
    assert_eq!(state(&h).advisor.req, Preset::Entry.requirement(), "the view starts from the entry tier");
    let entry = front(&h);
    assert!(!entry.is_empty());
    // The same front as the core's, ranked the same way.
    let core = advisor::advise(&state(&h).catalog, &Preset::Entry.requirement()).unwrap();
    assert_eq!(
        entry.iter().map(|c| &c.slug).collect::<Vec<_>>(),
        core.front.iter().map(|c| &c.slug).collect::<Vec<_>>()
    );
    for c in &entry {
        assert!(h.query_by_label(&c.build.name).is_some(), "{} is in the table", c.build.name);
        assert!(c.capex <= 20_000.0 + 1e-6, "within the entry budget");
    }

    // Any input: ticking three-phase recomputes the front for the new requirement.
    let revision = state(&h).advisor.revision();
    h.get_by_label(EN.advisor.phases).click();
    h.run();
    assert_eq!(state(&h).advisor.req.site.circuits.phases, 3);
    assert!(state(&h).advisor.revision() > revision);
    assert!(state(&h).advisor.preset.is_none(), "an edited requirement is no longer the preset");
    front(&h);

    // A preset replaces the whole requirement: the edge tier ranks by wall power.
    h.get_by_label(EN.advisor.preset_names[2]).click();
    h.run();
    assert_eq!(state(&h).advisor.req, Preset::Edge.requirement());
    let edge = front(&h);
    assert!(!edge.is_empty());
    assert!(edge.windows(2).all(|w| w[0].wall_watts <= w[1].wall_watts + 1e-9), "ranked by wall power");
    for c in &edge {
        assert!(h.query_by_label(&c.build.name).is_some());
    }
}

#[test]
fn hovering_a_point_shows_its_figures_and_clicking_selects_it() {
    let mut h = app_as_started(config());
    open_advisor(&mut h);
    let cands = front(&h);
    let req = state(&h).advisor.req.clone();
    // The last: the first is the one the detail shows until another is selected.
    let c = cands.last().unwrap();
    assert!(c.rank > 1, "the entry tier's front has more than one build");
    let y = SpeedAxis::of(&req, 0).value(c, 0).expect("the first workload has a speed");
    let memory = egui_plot::PlotMemory::load(&h.ctx, egui::Id::unique(FRONT_PLOT_ID)).expect("the plot was laid out");
    let at = memory.transform().position_from_point(&egui_plot::PlotPoint::new(c.capex, y));
    let card = format!("#{} {}", c.rank, c.build.name);
    assert!(h.query_by_label(&card).is_none(), "no card before the pointer comes");
    h.hover_at(at);
    h.run();
    assert!(h.query_by_label(&card).is_some(), "the hover card names the build");
    let capex = format!("{}: {} CNY", EN.advisor.col_capex, rigplan::core::units::format_thousands(c.capex, 0));
    assert!(h.query_by_label(&capex).is_some(), "and shows its capex: {capex}");
    click_at(&mut h, at);
    assert_eq!(state(&h).advisor.selected.as_deref(), Some(c.slug.as_str()));
    assert!(h.query_by_label(EN.advisor.why_this).is_some(), "the selected build's reasons show");
    for r in &c.reasons {
        assert!(h.query_by_label(&format!("• {}", r.render(EN.advisor.lang))).is_some());
    }
}

#[test]
fn open_as_build_is_a_new_unsaved_build_that_undo_takes_back() {
    let mut h = app_as_started(config());
    let before = build(&h).clone();
    assert_eq!(before, templates::find(templates::DEFAULT_TEMPLATE).unwrap().load().unwrap());
    open_advisor(&mut h);
    let cands = front(&h);
    let c = cands.last().unwrap().clone();
    h.get_by_label(&c.build.name).click();
    h.run();
    assert_eq!(state(&h).advisor.selected.as_deref(), Some(c.slug.as_str()));
    h.get_by_label(EN.advisor.open_as_build).click();
    h.run();
    assert_eq!(build(&h), &c.build);
    assert_eq!(state(&h).prefs.main_view, MainView::Build, "the build opens in the editor");
    assert!(state(&h).doc.is_dirty() && state(&h).doc.path().is_none(), "a new unsaved build");
    assert!(notice(&h).is_some_and(|n| n.contains(&format!("#{}", c.rank))));
    // The editor's own rules find no error in it.
    let errors = state(&h).derived.report.count(Severity::Error);
    assert_eq!(errors, 0, "{:?}", state(&h).derived.report.diagnostics);
    assert!(h.query_by_label(&c.build.name).is_some(), "the canvas shows it");

    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(build(&h), &before, "undo brings back the build that was open");
    assert!(!state(&h).doc.is_dirty());
    h.key_press_modifiers(Modifiers { shift: true, ..Modifiers::COMMAND }, egui::Key::Z);
    h.run();
    assert_eq!(build(&h), &c.build, "and redo the advised one");
}

#[test]
fn ticked_builds_go_to_the_compare_view_and_are_not_kept() {
    let mut h = app_as_started(config());
    open_advisor(&mut h);
    let cands = front(&h);
    assert!(cands.len() >= 2, "the entry tier has a trade-off to compare");
    let compare = |n: usize| rigplan::gui::text::fill(EN.advisor.compare_selected, &[&n]);
    h.get_by_label(&format!("#{}", cands[0].rank)).click();
    h.run();
    assert!(h.query_by_label(EN.advisor.compare_hint).is_some(), "one build is not a comparison");
    h.get_by_label(&format!("#{}", cands[1].rank)).click();
    h.run();
    assert_eq!(state(&h).advisor.marked, [cands[0].slug.clone(), cands[1].slug.clone()]);
    h.get_by_label(&compare(2)).click();
    h.run();
    h.run();
    let s = state(&h);
    assert_eq!(s.prefs.main_view, MainView::Compare);
    let sources: Vec<_> = s.compare.entries.iter().map(|e| e.source.clone()).collect();
    assert_eq!(
        sources,
        [CompareSource::Advised(cands[0].build.name.clone()), CompareSource::Advised(cands[1].build.name.clone())]
    );
    let cmp = s.compared.as_ref().and_then(|c| c.comparison()).expect("the two builds compare");
    assert_eq!(cmp.builds.len(), 2);
    let capex = cmp.row("capex").unwrap();
    for (i, c) in cands.iter().take(2).enumerate() {
        let shown = capex.values[i].unwrap();
        assert!((shown - c.capex).abs() < 1e-6 * c.capex.max(1.0), "the compare view's capex is the advisor's");
    }
    assert_eq!(h.query_all_by_label(EN.advisor.from_advisor).count(), 2);
    assert!(s.prefs_to_store().compare.is_empty(), "no file holds them: they are not stored");
}

#[test]
fn a_custom_architecture_starts_from_the_chosen_model_and_is_advised() {
    let mut h = app_as_started(config());
    open_advisor(&mut h);
    let before = front(&h);
    let combo = h.get_all_by_label(EN.advisor.model).min_by(|a, b| a.rect().top().total_cmp(&b.rect().top())).unwrap();
    combo.click();
    h.run();
    h.get_by_label(EN.advisor.custom_model).click();
    h.run();
    let req = &state(&h).advisor.req;
    let arch = req.workloads[0].custom.expect("workload 1 is a custom architecture now");
    let catalog = &state(&h).catalog;
    let llama = catalog.models.get("meta-llama-3.1-8b").unwrap();
    assert_eq!(
        arch,
        rigplan::core::analysis::memory::CustomArch::like(llama.total_params(), llama.transformer().unwrap())
    );
    assert_eq!(req.workloads[0].model.as_str(), arch.name());
    // Its fields are in the form, and the same shape gives the same builds.
    assert!(h.query_by_label(EN.advisor.layers).is_some());
    let after = front(&h);
    assert_eq!(
        after.iter().map(|c| (&c.key, c.capex)).collect::<Vec<_>>(),
        before.iter().map(|c| (&c.key, c.capex)).collect::<Vec<_>>()
    );
    assert!(after[0].workloads[0].fit_args.starts_with("--params "), "{}", after[0].workloads[0].fit_args);
}

#[test]
fn leaving_out_a_gpu_takes_its_builds_off_the_front() {
    // A tall window, so that the form's Limits section is on screen.
    let c = config();
    let mut h = Harness::builder().with_size(egui::vec2(1500.0, 2000.0)).build_eframe(move |cc| App::new(cc, c));
    h.run();
    open_advisor(&mut h);
    let first = front(&h)[0].clone();
    let gpu = first.key.gpu.clone();
    let name = state(&h).catalog.gpu(&gpu).unwrap().name.clone();
    h.get_by_label(EN.advisor.limits).click();
    h.run();
    // The menu button, named by its row's label (the rightmost widget of that name).
    h.get_all_by_label(EN.advisor.exclude_gpus)
        .max_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
        .unwrap()
        .click();
    h.run();
    h.get_by_label(&name).click();
    h.run();
    assert_eq!(state(&h).advisor.req.filters.exclude_parts, std::slice::from_ref(&gpu));
    let after = front(&h);
    assert!(!after.is_empty());
    assert!(after.iter().all(|c| c.key.gpu != gpu), "no build of the {name} is left");
}
