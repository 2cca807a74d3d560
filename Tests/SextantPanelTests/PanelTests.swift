import Testing
import SextantPanel
