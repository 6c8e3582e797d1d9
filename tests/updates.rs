//! Typed filters, reads and updates against a real server.
