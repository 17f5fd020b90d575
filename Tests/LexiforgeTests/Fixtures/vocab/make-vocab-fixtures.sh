#!/bin/sh
# Recreates the vocabulary fixtures (see ../README.md, section "vocab/"). Run in this folder.
set -e
printf 'expression,reading,meaning,tags,guid\r\n会う,あう,"to meet, to see",JLPT JLPT_5 JLPT_N5,g1\r\nテレビ,テレビ,television,JLPT JLPT_N5,g2\r\nああ,ああ,"Ah!, Oh!",JLPT_N4 JLPT_5 Genki,g3\r\n現像,げんぞう,developing (film),JLPT_1 JLPT,g4\r\n～区,～く,"~ district, ~ ward",JLPT JLPT_N4,g5\r\n故～,こ～,"deceased, late",JLPT_1,g6\r\n不,ふ,"un(~), negative prefix",JLPT_2,g7\r\nTシャツ,ティーシャツ,T-shirt,JLPT_N4,g8\r\nかまう,,to mind,JLPT_N4,g9\r\n"見る","みる","to see,\r\nto watch",JLPT_N5 JLPT_N4,g10\r\nこす (みずを～),こす (みずを～),to strain,JLPT_2,g11\r\n"say ""hi""",,greeting,JLPT_3,g12' > tiny.csv
printf 'level\texpression\treading\tmeaning\nN3\t会う\tあう\tto meet, to see\nN2\tラジオ\tラジオ\tradio\n' > tiny.tsv
printf 'expression,reading,meaning,tags\n猫,ねこ,cat,JLPT_N5\n犬,いぬ\n,から,empty,JLPT_N5\n鳥,とり,bird,JLPT_N7\n\377魚,さかな,fish,JLPT_N5\n猫,ねこ,cat,JLPT_N5\n馬,うま,horse,Genki\n牛,うし,cow,JLPT_N5\n' > bad.csv
printf 'word,kana\n猫,ねこ\n' > nocolumns.csv
printf 'lvl\tterm_x\tpron\tgloss\nA1\tcasa\t\thouse\nB2\tperro\tpero\tdog\n' > custom.tsv
