//! The large files the page holds only as the browser's handles (`Blob`s), by id: [`crate::state`]
//! refers to them by id (it has no DOM types), the worker reads them, the page never copies their text.

use std::cell::RefCell;
use std::collections::BTreeMap;

thread_local! {
    static FILES: RefCell<(u32, BTreeMap<u32, web_sys::Blob>)> = const { RefCell::new((0, BTreeMap::new())) };
}

/// Keeps `blob` and returns its id.
pub fn keep(blob: web_sys::Blob) -> u32 {
    FILES.with(|files| {
        let (last, map) = &mut *files.borrow_mut();
        *last += 1;
        map.insert(*last, blob);
        *last
    })
}

pub fn get(id: u32) -> Option<web_sys::Blob> {
    FILES.with(|files| files.borrow().1.get(&id).cloned())
}

/// Forgets every file but `ids` (the ones the state still refers to).
pub fn retain(ids: &[u32]) {
    FILES.with(|files| files.borrow_mut().1.retain(|id, _| ids.contains(id)));
}
