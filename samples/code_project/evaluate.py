"""Scores the model on held-out batches."""
import argparse

import torch

from lib.data import load_config, synthetic_batches
from lib.model import build_model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True)
    args = parser.parse_args()
    config = load_config(args.config)
    model = build_model(config["model"]).eval()
    correct = total = 0
    with torch.no_grad():
        for inputs, targets in synthetic_batches(config["data"], seed=1234):
            correct += (model(inputs).argmax(dim=1) == targets).sum().item()
            total += targets.numel()
    print(f"accuracy {correct / total:.3f} on {total} examples")


if __name__ == "__main__":
    main()
