pub mod use_file_reader;
