"""The semantic model: modules and their imports, Cell classes, graph scope, value kinds."""
