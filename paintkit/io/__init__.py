"""Reading and writing images and files (atomic writes, safe decoding)."""
