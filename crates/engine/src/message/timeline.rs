//! The words of the timeline: the state changes the engine places on it, and how a time was estimated.

crate::messages! {
    /// The timeline.
    pub enum Msg {}
}
