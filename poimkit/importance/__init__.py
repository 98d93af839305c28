"""Model-agnostic importance measures from the papers.

FIRM (Zien et al. 2009), permutation feature importance (Breiman; Fisher, Rudin
and Dominici), sensitivity analysis (Huh and Lee), MFI with its HSIC and MoRF
evaluation (Vidovic et al.) and FIBLR. The sequence versions of FIRM and MFI
are the POIMs in `poimkit.poim`. Each module's public names (its ``__all__``)
are importable from here.
"""

from .fiblr import *  # noqa: F403
from .fiblr import __all__ as _fiblr
from .firm import *  # noqa: F403
from .firm import __all__ as _firm
from .hsic import *  # noqa: F403
from .hsic import __all__ as _hsic
from .interactions import *  # noqa: F403
from .interactions import __all__ as _interactions
from .mfi import *  # noqa: F403
from .mfi import __all__ as _mfi
from .morf import *  # noqa: F403
from .morf import __all__ as _morf
from .permutation import *  # noqa: F403
from .permutation import __all__ as _permutation
from .sensitivity import *  # noqa: F403
from .sensitivity import __all__ as _sensitivity

__all__ = sorted(
    {
        *_fiblr,
        *_firm,
        *_hsic,
        *_interactions,
        *_mfi,
        *_morf,
        *_permutation,
        *_sensitivity,
    }
)
