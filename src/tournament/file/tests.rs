//! Tournament files read and refused.
