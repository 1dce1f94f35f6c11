pub mod finding_card;
pub mod findings;
pub mod input_panel;
pub mod inputs_list;
pub mod secrets_panel;
