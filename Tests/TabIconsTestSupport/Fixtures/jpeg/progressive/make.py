"""Makes the progressive JPEGs the 1/8 DC-scan tests read (run from the package root):

    python3 Tests/TabIconsTestSupport/Fixtures/jpeg/progressive/make.py ../shared/corpus/jpeg/testorig.jpg

The picture is libjpeg-turbo's testorig.jpg (IJG licence), re-encoded by Pillow with libjpeg's
standard progressive script, whose DC refinement scan comes after AC scans: the case where
reading only the DC scans must still give every pixel.
"""
import sys
from PIL import Image

source = Image.open(sys.argv[1]).convert("RGB")
out = "Tests/TabIconsTestSupport/Fixtures/jpeg/progressive/"
source.save(out + "p444.jpg", quality=90, progressive=True, subsampling=0)
source.save(out + "p422.jpg", quality=90, progressive=True, subsampling=1)
source.save(out + "p444-restart.jpg", quality=90, progressive=True, subsampling=0, restart_marker_blocks=7)
source.convert("L").save(out + "pgray.jpg", quality=90, progressive=True)
