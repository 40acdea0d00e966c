"""Checks the training configuration before any node starts."""
import argparse
import sys

import yaml

from lib.data import load_config


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True)
    args = parser.parse_args()
    config = load_config(args.config)
    missing = [key for key in ("model", "data", "optimizer") if key not in config]
    if missing:
        sys.exit(f"{args.config}: missing sections {', '.join(missing)}")
    print(yaml.safe_dump(config, sort_keys=False))


if __name__ == "__main__":
    main()
