"""Trains the model on every node of the gang (torchrun sets the ranks)."""
import argparse
import os

import torch
import torch.distributed as dist

from lib.data import load_config, synthetic_batches
from lib.model import build_model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True)
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args()
    config = load_config(args.config)

    dist.init_process_group(backend="gloo")
    model = torch.nn.parallel.DistributedDataParallel(build_model(config["model"]))
    optimizer = torch.optim.AdamW(model.parameters(), lr=config["optimizer"]["lr"])
    for epoch in range(args.epochs):
        for inputs, targets in synthetic_batches(config["data"], seed=epoch):
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(inputs), targets)
            loss.backward()
            optimizer.step()
        if dist.get_rank() == 0:
            print(f"epoch {epoch}: loss {loss.item():.4f}", flush=True)
    if dist.get_rank() == 0:
        os.makedirs("/tmp/checkpoints", exist_ok=True)  # the working directory is read-only
        torch.save(model.module.state_dict(), "/tmp/checkpoints/model.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
