" The flow language (flowc), after grammar/FlowLexer.g4: # comments, "..." strings with the
" escapes \" \\ \n \t \r \u{HEX} that end unterminated at the end of their line, """raw"""
" strings over lines, {{references}} inside both, and never a # inside a string as a comment.
if exists('b:current_syntax')
  finish
endif

syn keyword flowDeclaration flow step nextgroup=flowName skipwhite
syn keyword flowDeclaration param nextgroup=flowParamName skipwhite
syn keyword flowKeyword run next foreach
syn keyword flowBoolean true false
syn keyword flowNull null
syn match flowName /\h\w*/ contained
syn match flowParamName /\h\w*/ contained nextgroup=flowTypeColon skipwhite
syn match flowTypeColon /:/ contained nextgroup=flowType skipwhite
syn match flowType /\h\w*/ contained
syn match flowDecorator /@\s*\h\w*/
syn match flowArgument /\h\w*\ze\s*=/
syn match flowNumber /\w\@<!-\?\d\+\%(\.\d\+\)\?\%([eE][+-]\?\d\+\)\?/
syn match flowComment /#.*$/ contains=@Spell

" Later definitions win at the same column: a valid escape over a bad one.
syn match flowReference /{{ *\h\w* *}}/ contained
syn match flowBadEscape /\\./ contained
syn match flowEscape /\\\%(["\\ntr]\|u{\x\+}\)/ contained
syn region flowRawString start=/"""/ end=/"""/ contains=flowReference
syn region flowString start=/"\(""\)\@!/ skip=/\\./ end=/"\|\ze\\\?$/ oneline
      \ contains=flowEscape,flowBadEscape,flowReference

hi def link flowDeclaration StorageClass
hi def link flowKeyword Keyword
hi def link flowBoolean Boolean
hi def link flowNull Constant
hi def link flowType Type
hi def link flowName Identifier
hi def link flowDecorator PreProc
hi def link flowArgument Identifier
hi def link flowNumber Number
hi def link flowComment Comment
hi def link flowReference Special
hi def link flowEscape SpecialChar
hi def link flowBadEscape Error
hi def link flowRawString String
hi def link flowString String

let b:current_syntax = 'flow'
