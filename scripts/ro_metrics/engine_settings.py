"""Settings of the Snakemake engine itself that the command line cannot give.

Layer-free: it imports nothing of the package (workflow/rules/common.smk applies it
while the workflow is parsed).
"""


def hash_params_without_pandas(persistence_class) -> bool:
    """Compare params with Snakemake's builtin serializer, without importing pandas;
    True if applied.

    To record and compare each job's params (the `params` rerun trigger), Snakemake
    picks a serializer that imports pandas whenever pandas is installed, only to hash
    DataFrame params: 0.3 s of every run, a no-op included, in this environment (where
    the changes step needs pandas). Our params are numbers, strings and a dict of
    paths, for which that serializer returns the builtin one's text (repr): the
    recorded params and their comparison are unchanged. Applied only if Snakemake
    still has both (pinned 9.27; a later version keeps its own behaviour).
    """
    chooser = getattr(persistence_class, "_serialize_param", None)
    if not isinstance(chooser, property) or not hasattr(
        persistence_class, "_serialize_param_builtin"
    ):
        return False
    persistence_class._serialize_param = property(lambda self: self._serialize_param_builtin)
    return True
