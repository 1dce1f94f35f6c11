pub mod boundary_table;
pub mod diagram;
pub mod export_menu;
pub mod finding_card;
pub mod findings;
#[cfg(test)]
mod html_snapshots;
pub mod input_panel;
pub mod input_viewer;
pub mod inputs_list;
pub mod language_switch;
pub mod rules_page;
pub mod sample_menu;
pub mod secrets_panel;
pub mod timeline;
pub mod view_switcher;
