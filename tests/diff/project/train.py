import lib.util
print("train")
