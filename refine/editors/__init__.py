"""Image editors: the offline text editor and diffusers instruction-editing pipelines."""
