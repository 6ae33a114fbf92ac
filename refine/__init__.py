"""The refine loop: judge -> failed checks -> edit instructions -> editor -> judge again."""
