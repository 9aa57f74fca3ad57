//! The serving layer every HTTP server of a manager shares, and the helpers it and its
//! users (the webhook server) have in common.

use std::any::Any;

/// The message a panic was raised with (`panic!("...")` with or without arguments),
/// or a placeholder for a panic with a payload of another type: for logging a
/// caught panic and for the error that reports it.
pub fn panic_message(panic: &(dyn Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|message| (*message).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned())
}
