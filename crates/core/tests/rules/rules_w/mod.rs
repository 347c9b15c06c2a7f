//! Combat-layer rules (document 003): W-01 to W-25, each with scripted dice
//! and exact outcomes; one file per kind of combat. A reading the documents
//! leave open and the scenario makes a key (docs/rules.md, "Readings as
//! keys") is tested beside its rule, both readings played through the
//! engine's option lists.

mod army;
mod naval;
mod siege;
mod spy;
