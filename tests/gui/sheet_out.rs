//! The parts list leaves the app: copied as Markdown (to paste into a chat) and printed
//! through the browser (issue 17).

use crate::common::*;
use egui::{Key, Modifiers, OutputCommand};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigplan::gui::App;

/// Steps frames until `done` holds (an opener runs on its own thread), at most 5 s.
fn step_until(h: &mut Harness<'static, App>, done: impl Fn(&Harness<'static, App>) -> bool) {
    for _ in 0..100 {
        h.step();
        if done(h) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn copy_puts_the_markdown_parts_list_on_the_clipboard() {
    let mut h = app(config());
    click_add(&mut h, RTX_4090_NAME);
    h.get_by_label("Copy parts list as Markdown").click();
    let mut copied = Vec::new();
    for _ in 0..4 {
        h.step();
        copied.extend(h.output().platform_output.commands.iter().filter_map(|c| match c {
            OutputCommand::CopyText(text) => Some(text.clone()),
            _ => None,
        }));
    }
    assert_eq!(copied.len(), 1, "copied once");
    let md = &copied[0];
    // The sheet's parts table: a header row, its rule, the GPU's row, and the capex total.
    assert!(md.starts_with("**Build sheet: Untitled build**"), "{md}");
    let rows: Vec<&str> = md.lines().filter(|l| l.starts_with('|')).collect();
    assert_eq!(rows.len(), 3, "{md}");
    assert!(rows[2].contains("GeForce RTX 4090"), "{md}");
    assert!(md.contains("**Capex:**"), "{md}");
    assert!(notice(&h).is_some_and(|n| n.contains("as Markdown")));
}

#[test]
fn print_writes_the_html_sheet_and_opens_it_or_says_where_it_is() {
    let mut h = app(config());
    click_add(&mut h, RTX_4090_NAME);
    h.state_mut().state_mut().push(rigplan::gui::command::Command::RenameBuild("Print test rig".into()));
    h.run();
    h.state_mut().state_mut().opener = vec!["true".into()];
    h.key_press_modifiers(Modifiers::COMMAND, Key::P);
    step_until(&mut h, |h| notice(h).is_some_and(|n| n.contains("to print")));
    let message = notice(&h).expect("a message");
    assert!(message.starts_with("Opened the build sheet to print from your browser: "), "{message}");
    let path = std::path::PathBuf::from(message.rsplit(": ").next().unwrap());
    let html = std::fs::read_to_string(&path).expect("the sheet is written");
    assert!(html.contains("<html") && html.contains("Print test rig") && html.contains("RTX 4090"));
    // No opener that works: the message says why and where the file is.
    h.state_mut().state_mut().opener = vec!["false".into()];
    h.get_by_label("Print build sheet…").click();
    step_until(&mut h, |h| notice(h).is_some_and(|n| n.starts_with("Could not open")));
    let message = notice(&h).expect("a message");
    assert!(message.contains("false: exit status: 1"), "{message}");
    assert!(message.contains(&path.display().to_string()), "{message}");
}
