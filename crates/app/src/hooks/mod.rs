pub mod use_file_reader;
pub mod use_texts;
