use std::cell::RefCell;
use std::rc::Rc;

use gloo::file::callbacks::{read_as_text, FileReader};
use gloo::file::File;
use yew::prelude::*;

use crate::files;
use crate::state::{Input, Text, INLINE_FILE_BYTES};

/// Reads dropped or picked files (or a picked folder's files) and hands each one to `on_file`. Small
/// files are read as text (the input viewer shows them at once); a large one is handed over as the
/// browser's file handle, unread: the worker reads it, so its text is never copied on the main thread.
/// The readers are kept alive by the hook (dropping a `FileReader` cancels it).
#[hook]
pub fn use_file_reader(
    on_file: Callback<Input>,
    on_unreadable: Callback<(String, faultline_render::protocol::Unreadable)>,
) -> Callback<web_sys::FileList> {
    let readers: Rc<RefCell<Vec<FileReader>>> = use_mut_ref(Vec::new);
    Callback::from(move |list: web_sys::FileList| {
        let mut readers = readers.borrow_mut();
        readers.clear();
        for index in 0..list.length() {
            let Some(file) = list.item(index) else { continue };
            // A folder's files keep their path inside it (`cluster-resources/pods/shop.json`), so
            // evidence can tell `pods/shop.json` from `events/shop.json`.
            let relative = js_sys::Reflect::get(&file, &"webkitRelativePath".into())
                .ok()
                .and_then(|v| v.as_string());
            let bytes = file.size() as u64;
            let name = relative.filter(|p| !p.is_empty()).unwrap_or_else(|| file.name());
            if bytes > INLINE_FILE_BYTES {
                let id = files::keep(file.into());
                on_file.emit(Input {
                    name,
                    text: Text::File { id, bytes },
                });
                continue;
            }
            let file = File::from(file);
            let on_file = on_file.clone();
            let on_unreadable = on_unreadable.clone();
            readers.push(read_as_text(&file, move |result| match result {
                Ok(text) => on_file.emit(Input {
                    name,
                    text: text.into(),
                }),
                Err(e) => on_unreadable.emit((
                    name,
                    faultline_render::protocol::Unreadable::DropFailed(e.to_string()),
                )),
            }));
        }
    })
}
