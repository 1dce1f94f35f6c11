//! The words of reading the inputs: input errors and why lines were not read.

crate::messages! {
    /// Reading the inputs.
    pub enum Msg {}
}
