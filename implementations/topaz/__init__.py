"""The Topaz products: opt-in Lispex implementations independent of tree and vm."""
