"""The report's words on the models a run compared: SVM (or CNN), motif model, stack."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...param_docs import parameters_from
from ..crossval import split_text
from .html import table

if TYPE_CHECKING:
    from ..results import RunSummary

#: what each model a run chooses among is, in the report's words
MODEL_WORDS = {
    "svm": "the SVM",
    "motifs": "the motif model (a linear model of the motifs' sites)",
    "stack": "the stack (one linear model of the SVM's score and the motifs' sites)",
}
#: what `fidelity_sentence` says the run kept, by ``chosen_model``
KEPT_WORDS = {
    "svm": "here no other model was, and the run kept the {model}",
    "motifs": "here the motif model was, and the run kept it",
    "stack": "here the stack was, and the run kept it",
}

#: a Parameters section of the one argument ``s`` (`poimkit.param_docs`)
_ON_SUMMARY = parameters_from({"s": "s : RunSummary\n    A run's summary."})("s")


def trained_name(family: str | None) -> str:
    """What the run trained, in a word: "CNN" for ``--kernel cnn``, else "SVM".

    Parameters
    ----------
    family : str or None
        The run's family (``RunSummary.family``; "auto" or None: unresolved).

    Examples
    --------
    >>> trained_name("cnn"), trained_name("gkm")
    ('CNN', 'SVM')
    """
    from ..registry import find_family

    found = find_family(family)
    return "SVM" if found is None else found.trained_name


@_ON_SUMMARY
def model_words(s: RunSummary, name: str) -> str:
    """`MODEL_WORDS` of ``name``, with the trained model named for its family.

    %(parameters)s
    name : str
        "svm", "motifs" or "stack".
    """
    return MODEL_WORDS[name].replace("SVM", trained_name(s.family))


@_ON_SUMMARY
def headline(s: RunSummary) -> str:
    """The opening's figures: the chosen model's CV AUC, and the SVM's (CNN's) if other.

    %(parameters)s
    """
    if not s.cv.done:
        return (
            "was trained on all of them <b>without cross-validation</b> "
            "(cv 0): how well it separates new sequences is unknown.</p>"
        )
    chosen, f = s.chosen_model, s.cv.figures
    figures = (
        f"<b>cross-validated ROC AUC of {f['cv_auc']:.3f}</b> (&plusmn; "
        f"{f['cv_auc_std']:.3f} over {split_text(s.cv)}{gc_words(s)}) and an "
        f"accuracy of {f['cv_accuracy']:.3f}{_accuracy_detail(s)}"
    )
    if chosen == "svm":
        return f"separates them with a {figures}.</p>"
    svm = s.cv.models["svm"]
    return (
        f"separates them with a cross-validated ROC AUC of {svm['cv_auc']:.3f}; "
        f"{model_words(s, chosen)} does better, with a {figures}, and is the model "
        f"this run chose (<span class='mono'>"
        f"{'stack.npz' if chosen == 'stack' else 'motif_model.npz'}</span>).</p>"
    )


def gc_words(s: RunSummary) -> str:
    """Words on GC content alone in the same folds (empty if not measured).

    Parameters
    ----------
    s : RunSummary
        A run's summary (``gc_cv_auc``, `poimkit.run.gc_baseline`).
    """
    if s.cv.baseline.get("gc_cv_auc") is None:
        return ""
    gc = s.cv.baseline["gc_cv_auc"]
    return f"; GC content alone reaches {gc:.3f} in the same folds"


def _accuracy_detail(s: RunSummary) -> str:
    """Balanced accuracy and the best threshold's, in brackets (empty if absent)."""
    f = s.cv.figures
    if f.get("cv_balanced_accuracy") is None:
        return ""
    return (
        f" (balanced {f['cv_balanced_accuracy']:.3f}; the best threshold on the "
        f"same held-out scores would reach {f['cv_best_accuracy']:.3f})"
    )


@_ON_SUMMARY
def fidelity_sentence(s: RunSummary) -> str:
    """How much of the model's ranking its motifs explain (empty: no motif model).

    %(parameters)s
    """
    explained = s.motif_model
    if not explained or explained["fidelity"] is None:
        return ""
    n = len(explained["coefficients"])
    them = f"The {n} motif{'s' if n > 1 else ''}"
    model = trained_name(s.family)
    alone = (
        "a logistic model of the motifs alone (each fold's motifs found in its "
        "training sequences only) reaches a cross-validated ROC AUC "
        f"of {explained['cv_auc']:.3f}, the {model} "
        f"{s.cv.models['svm']['cv_auc']:.3f}"
    )
    if explained["fidelity"] >= 1:
        verb = "rank" if n > 1 else "ranks"
        opening = f"<b>{them} alone {verb} the sequences as well as the {model}</b>: "
    else:
        opening = (
            f"{them} {'explain' if n > 1 else 'explains'} <b>"
            f"{100 * explained['fidelity']:.0f} % of the model's ranking</b> (the "
            f"share of the {model}'s AUC above 0.5 they keep): "
        )
    return (
        f"<p class='big'>{opening}{alone}. The stack of the {model}'s score and the "
        f"motifs reaches {explained['stack_cv_auc']:.3f}. A run keeps the {model} "
        "unless another model is better by more than one standard error: "
        f"{KEPT_WORDS[s.chosen_model or 'svm'].format(model=model)}.</p>"
    )


@_ON_SUMMARY
def effects_table(s: RunSummary) -> str:
    """The motif model's coefficient per motif (empty: no motif model).

    %(parameters)s
    """
    explained = s.motif_model
    if not explained:
        return ""
    classes = {m["name"]: m.get("class", "") for m in s.motifs}
    rows = [
        [
            c["motif"],
            classes.get(c["motif"], ""),
            f"{c['coefficient']:+.3f}",
            f"{c['odds_ratio']:.3f}",
        ]
        for c in explained["coefficients"]
    ]
    share = explained.get("threshold")
    feature, unit = (
        ("the motif's best site score in a sequence", "one bit")
        if share is None
        else (
            "the chance that the motif's best window in a sequence is a site (0 to "
            f"1; one half where the window scores {100 * share:.0f} % of the "
            "motif's best possible score)",
            "a certain site",
        )
    )
    return (
        "<p><b>Each motif's effect in the motif model</b>: the change of the "
        f"log-odds of the positive class per unit of {feature}, and the odds "
        f"ratio of {unit} (PWMs mixed with "
        f"{100 * explained['smoothing']:.0f} % background letters; both chosen "
        "by the inner cross-validation).</p>"
        + table(["motif", "class", "per unit", "odds ratio"], rows, {2, 3})
    )


@_ON_SUMMARY
def regression_models_text(s: RunSummary) -> str:
    """The motif model's share and the model chosen (empty: no motif model).

    %(parameters)s
    """
    explained = s.motif_model
    if not explained or explained.get("fidelity") is None:
        return ""
    n = len(explained["coefficients"])
    chosen = s.chosen_model
    svm = s.cv.models["svm"]["cv_pearson"]
    counted = any(m.get("counted") for m in s.motifs)
    features = "best site scores and word counts" if counted else "best site scores"
    return (
        f"<p class='big'>The {n} motif{'s' if n > 1 else ''} alone (a ridge model "
        f"of their {features}, found in each fold's training sequences only) "
        f"reach a Pearson correlation of {explained['cv_pearson']:.3f}: "
        f"<b>{100 * explained['fidelity']:.0f} % of the SVM's</b> ({svm:.3f}). "
        "The stack of the SVM's prediction and the motifs reaches "
        f"{explained['stack_cv_pearson']:.3f}. The run keeps the SVM unless "
        "another is better by more than one standard error: here "
        f"{MODEL_WORDS[chosen]}.</p>"
    )


def families_section(s: RunSummary) -> str:
    """Both families side by side when ``kernel="auto"`` also trained the CNN.

    One row per family: its model's, motif model's and stack's CV AUC, and
    the one it chose among them (empty: only one family was trained).

    Parameters
    ----------
    s : RunSummary
        A run's summary (``families_compared``, `poimkit.run.families`).
    """
    from ..families import CHOICE_WORDS, ORDER, families_text

    compared = s.cv.families_compared
    if not compared:
        return ""
    rows = []
    for name in ORDER:
        f = compared[name]
        models = f.get("models") or {}
        figure = [
            "-" if models.get(m) is None else f"{models[m]['cv_auc']:.3f}"
            for m in ("svm", "motifs", "stack")
        ]
        kept = "kept" if compared["chosen"] == name else ""
        trained = "CNN" if name == "cnn" else f"SVM ({f['family']})"
        rows.append(
            [trained, *figure, CHOICE_WORDS[f.get("chosen_model") or "svm"], kept]
        )
    text = families_text(compared)
    return (
        f"<p><b>Families compared.</b> {text[0].upper()}{text[1:]}. Each family "
        "chose among its model, its motif model and its stack by the same rule; "
        "the figures below are cross-validated ROC AUCs.</p>"
        + table(
            ["family", "model", "motif model", "stack", "its choice", ""],
            rows,
            {1, 2, 3},
        )
    )
