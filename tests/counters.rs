//! Counters kept in step with their arrays, against a real server.
