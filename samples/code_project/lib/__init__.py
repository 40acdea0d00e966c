"""Code shared by the steps of code_project."""
