//! Faultline's web app: a thin Yew view over the engine's `Report`. The engine runs in the page;
//! nothing is fetched after the page's own files load.

mod app;
mod components;
mod hooks;
mod i18n;
mod route;
mod samples;
mod state;
mod view_model;

fn main() {
    yew::Renderer::<app::App>::new().render();
}
