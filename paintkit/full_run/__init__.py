"""The whole run into one folder (:func:`paintkit.bench`, ``paintkit bench``): generate ->
outputs -> evaluate -> aggregate -> report. :mod:`paintkit.full_run.steps` holds the steps,
:mod:`paintkit.full_run.fingerprints` what a step reads of its folders to know it is done.
(The ``bench/`` folder of the repository is something else: scripts that measure speed.)"""
