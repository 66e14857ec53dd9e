"""Provider API editors: OpenAI-compatible image edits and Google Gemini image models.

Both go through the provider's official Python client (``pip install 'paintkit[api]'``),
one request per problem, with the shared limits of :mod:`paintkit.run.api.limits`.
"""
