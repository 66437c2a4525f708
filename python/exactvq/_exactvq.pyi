# The compiled half of exactvq; use the package's functions (exactvq.score, ...).
from typing import Any, Dict, List, Optional, Union

__version__: str
_has_cuda_frames: bool
_has_ffmpeg: bool

class Error(RuntimeError): ...
class UsageError(Error, ValueError): ...
class InputError(Error): ...
class DeviceError(Error): ...

class _RunArgs:
    features: Union[None, str, List[str]]
    models: Union[None, str, List[str]]
    no_prediction: bool
    mode: str
    backend: str
    threads: int
    gpu: int
    def __init__(self) -> None: ...

class _PlaneSet:
    def __init__(self, data: int, count: int, height: int, width: int, frame_stride: int,
                 row_stride: int) -> None: ...

class _DlpackTensor:
    def __init__(self, capsule: Any) -> None: ...
    def describe(self) -> Dict[str, Any]: ...

def _score_files(ref_path: Any, dist_path: Any, args: _RunArgs, width: int, height: int, chroma: str,
                 bitdepth: int, frame_count: int, skip_ref: int, skip_dist: int,
                 subsample: int) -> Dict[str, Any]: ...
def _score_planes(ref: List[_PlaneSet], dist: List[_PlaneSet], on_cuda: bool, cuda_stream: int, chroma: str,
                  bitdepth: int, args: _RunArgs) -> Dict[str, Any]: ...
