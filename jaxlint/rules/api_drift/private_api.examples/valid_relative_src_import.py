from . import _src
from ._src import core
