"""The model of code_project: a small multi-layer perceptron."""
import torch


def build_model(model):
    layers, width = [], model["inputs"]
    for hidden in model["hidden"]:
        layers += [torch.nn.Linear(width, hidden), torch.nn.ReLU()]
        width = hidden
    layers.append(torch.nn.Linear(width, model["classes"]))
    return torch.nn.Sequential(*layers)
