"""A ``module:function`` model for ``paintkit run`` in the bench test: returns the input."""


def echo(batch):
    return [image for image, _ in batch]
