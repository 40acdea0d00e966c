"""Configuration and data for code_project."""
import yaml


def load_config(path):
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def synthetic_batches(data, seed):
    import torch

    generator = torch.Generator().manual_seed(seed)
    for _ in range(data["batches"]):
        inputs = torch.randn(data["batch_size"], data["features"], generator=generator)
        targets = torch.randint(0, data["classes"], (data["batch_size"],), generator=generator)
        yield inputs, targets
