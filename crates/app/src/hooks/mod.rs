pub mod use_engine_worker;
pub mod use_file_reader;
pub mod use_leave_guard;
pub mod use_narrow;
pub mod use_show_more;
pub mod use_texts;
